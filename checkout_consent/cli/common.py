"""What every verb group of the command line shares: messages and task arguments."""

from __future__ import annotations

import argparse
import sys
from typing import Any, NoReturn

from checkout_consent.core.contract import World
from checkout_consent.runtime.meta import refuse_param, task_params


class UsageError(ValueError):
    """Bad input on the command line: one line on stderr, exit 2, nothing run."""


def err(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def one_line(error: BaseException, limit: int = 500) -> str:
    """An error as the one line a command prints (a KeyError's message without quotes)."""
    message = error.args[0] if isinstance(error, KeyError) and error.args else error
    return " ".join(str(message).split())[:limit]


def clone_hint(what: str) -> str:
    """Why a default path is absent from an installed wheel ("" in a checkout)."""
    from checkout_consent.runtime.provenance import CHECKOUT

    if CHECKOUT is not None:
        return ""
    return (
        f" (checkout-consent is installed from a wheel here: the committed {what} are in a "
        "clone of the repository; run this in the clone, or give the folder)"
    )


class Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line on stderr, exit 2."""

    def error(self, message: str) -> NoReturn:
        err(f"{self.prog}: {' '.join(message.split())} (see {self.prog} --help)")
        raise SystemExit(2)


def log_dir_arg(value: str) -> str:
    """A log directory: never one that starts with `-` (a mistyped option, e.g. --help)."""
    if not value.strip() or value.startswith("-"):
        raise argparse.ArgumentTypeError(
            f"{value!r} is not a log directory (it starts with "
            f"'-' or is empty; write ./{value} if you mean it)"
        )
    return value


def add_log_dir(parser: argparse.ArgumentParser, *, default: object) -> None:
    """`--log-dir` on this parser and every sub-command under it (before or after the verb)."""
    if not any("--log-dir" in a.option_strings for a in parser._actions):
        parser.add_argument(
            "--log-dir",
            type=log_dir_arg,
            default=default,
            help="where .eval logs go (default: logs)",
        )
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in set(action.choices.values()):
                add_log_dir(child, default=argparse.SUPPRESS)


def add_task_arg(parser: argparse.ArgumentParser, help: str) -> None:
    parser.add_argument("-T", action="append", metavar="KEY=VALUE", help=help)


def task_args(args: argparse.Namespace, world: World) -> dict[str, Any]:
    """The public set's task arguments, overridden by `-T key=value` and `--seeds`."""
    out = dict(world.dataset.public_args)
    for item in args.T or []:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise UsageError(f"-T expects key=value, got {item!r}")
        if key not in task_params(world):
            raise UsageError(refuse_param(world, key))
        out[key] = value
    if getattr(args, "seeds", None):
        if "seeds" not in task_params(world):
            raise UsageError(
                f"{world.name} has no seeds; parameters: {', '.join(sorted(task_params(world)))}"
            )
        out["seeds"] = args.seeds
    return out


MAX_SAMPLES = 10_000  # a larger run needs --allow-large
MAX_COUNT = 1000  # --epochs / --max-connections / --max-samples


def check_model(model: str, world: World) -> None:
    """A control must belong to the family it is asked to play (or, as `control/reference`,
    to none)."""
    from checkout_consent.families import control_registry

    if not model.startswith("control/"):
        return
    owner = control_registry().owner(model.removeprefix("control/"))
    if owner is not None and owner != world.family:
        raise UsageError(
            f"{model} is a {owner} control; it cannot play {world.name} "
            f"(controls: checkout-consent list {world.name})"
        )


COUNTS = ("epochs", "max_connections", "max_samples")


def check_counts(args: argparse.Namespace, names: tuple[str, ...] = COUNTS) -> None:
    """Each of these count options, when given, is between 1 and MAX_COUNT."""
    for name in names:
        value = getattr(args, name, None)
        if value is not None and not 1 <= value <= MAX_COUNT:
            raise UsageError(
                f"--{name.replace('_', '-')} must be between 1 and {MAX_COUNT}, got {value}"
            )


_BUILT: dict[tuple[str, str], Any] = {}  # (world, arguments) -> its Task, built once a run


def built_task(world: World, arguments: dict[str, Any]) -> Any:
    """The world's Task for these arguments, built once per process (a bad -T: UsageError)."""
    import json

    from checkout_consent.runtime.compat import prerequisite_error
    from checkout_consent.runtime.runner import build_task

    key = (world.name, json.dumps(arguments, sort_keys=True, default=str))
    if key not in _BUILT:
        try:
            _BUILT[key] = build_task(world, arguments)
        except prerequisite_error() as error:
            raise UsageError(str(error)) from None
    return _BUILT[key]


def sample_count(world: World, arguments: dict[str, Any]) -> int:
    """How many samples the family's task makes from these arguments (a bad -T: UsageError)."""
    from checkout_consent.core.task_args import parse_seeds

    if "seeds" in arguments:
        try:
            seeds = len(parse_seeds(arguments["seeds"]))
        except ValueError as error:
            raise UsageError(f"{world.name}: --seeds/-T seeds: {error}") from None
        if seeds > MAX_SAMPLES:
            return seeds
    return len(built_task(world, arguments).dataset)


def check_size(args: argparse.Namespace, world: World, arguments: dict[str, Any]) -> None:
    """Refuse a run beyond MAX_SAMPLES samples unless --allow-large says it is meant."""
    count = sample_count(world, arguments) * (args.epochs or world.epochs)
    if count > MAX_SAMPLES and not args.allow_large:
        raise UsageError(
            f"{world.name}: this run has {count:,} samples (more than "
            f"{MAX_SAMPLES:,}); pass --allow-large if you mean it"
        )
