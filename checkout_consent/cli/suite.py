"""`suite`: every world on the roster for one model, as one resumable Inspect eval set.

Each world is its registered task (`checkout_consent/<task>`), and the worlds run together as
one `inspect_ai.eval_set` over one log dir. Run the same command again after a crash, a kill
or a failed sample and Inspect reuses every sample already written to the logs (by sample
id and epoch) and plays only the rest. The end prints every world's headline and writes it
to DIR/suite-summary.json (`cli/suite_summary.py`). `--print-command` prints the plain
`inspect eval-set` command that is the same eval set (same task identities, same logs).
`--model control/reference` is the suite offline and keyless: each world played by its
reference control. A model whose provider needs a key is refused at once without one."""

from __future__ import annotations

import argparse
import json
import shlex
from typing import Any

from checkout_consent.cli import suite_summary
from checkout_consent.cli.cassettes import check_live_key, model_args
from checkout_consent.cli.common import (
    COUNTS,
    MAX_COUNT,
    MAX_SAMPLES,
    UsageError,
    add_task_arg,
    built_task,
    check_counts,
    err,
)
from checkout_consent.cli.common import check_model as check_control
from checkout_consent.core.contract import World
from checkout_consent.families import (
    EVERY_REFERENCE,
    WORLDS,
    control_registry,
    reference_of,
    world_named,
)
from checkout_consent.runtime.meta import task_params

PACKAGE = __name__.split(".")[0]

# Defaults: Inspect's per-provider requests in flight; samples per world (a month is large).
MAX_CONNECTIONS = 10
SAMPLES_PER_WORLD = 10
WORLD_KEYS = frozenset({"scenario"})


def parse_shard(text: str) -> tuple[int, int]:
    k, sep, n = text.partition("/")
    if not (sep and k.isdigit() and n.isdigit() and 1 <= int(k) <= int(n) <= MAX_COUNT):
        raise argparse.ArgumentTypeError(f"expected K/N with 1 <= K <= N <= {MAX_COUNT}")
    return int(k), int(n)


def shard_of(ids: list[str], shard: tuple[int, int]) -> list[str]:
    """Shard K of N of a world's sample ids: every N-th, from the K-th (dataset order)."""
    return ids[shard[0] - 1 :: shard[1]]


def chosen_worlds(args: argparse.Namespace) -> list[World]:
    """The worlds this run plays, each checked against the model."""
    if args.world:
        out = [world_named(label) for label in dict.fromkeys(args.world)]
    else:
        out = list(WORLDS)
        if args.model.startswith("control/"):
            owner = control_registry().owner(args.model.removeprefix("control/"))
            out = [w for w in out if owner is None or w.family == owner]
        if args.shard:
            out = [w for w in out if w.pure]
        if not out:
            raise UsageError(f"no world for {args.model} to play (--shard plays pure worlds only)")
    for world in out:
        check_control(args.model, world)
        if args.shard and not world.pure:
            raise UsageError(
                f"{world.name} is not pure (its grading runs on the machine that plays "
                "it): run it whole, without --shard"
            )
    return out


def world_args(args: argparse.Namespace, worlds: list[World]) -> dict[str, dict[str, Any]]:
    """Each world's -T arguments: every `-T KEY=VALUE` goes to the worlds that take KEY."""
    out: dict[str, dict[str, Any]] = {w.name: {} for w in worlds}
    for item in args.T or []:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise UsageError(f"-T expects key=value, got {item!r}")
        if key in WORLD_KEYS:
            raise UsageError(f"-T {key} picks a world: the suite plays worlds chosen by --world")
        takers = [w for w in worlds if key in task_params(w)]
        if not takers:
            raise UsageError(f"no world of this run takes -T {key[:40]!r} (see --world)")
        for w in takers:
            out[w.name][key] = value
    return out


def selection(
    args: argparse.Namespace, tasks: dict[str, Any], plain: bool = False
) -> list[str] | None:
    """Inspect's `sample_id` for --shard, else None; `plain`: as `inspect` names the tasks."""
    if args.shard is None:
        return None
    return [
        f"{registered(task.name) if plain else task.name}:{sample_id}"
        for task in tasks.values()
        for sample_id in shard_of([str(s.id) for s in task.dataset], args.shard)
    ]


def registered(name: str) -> str:
    """A task's name as the installed package registers it: `checkout_consent/<task>` (from
    a source tree Inspect does not see as installed, it drops the prefix)."""
    return f"{PACKAGE}/{name.rsplit('/', 1)[-1]}"


def _size(args: argparse.Namespace, tasks: dict[str, Any], chosen: list[str] | None) -> int:
    each = [min(len(t.dataset), args.limit or len(t.dataset)) for t in tasks.values()]
    samples = (len(chosen) if chosen is not None else sum(each)) * (args.epochs or 1)
    if samples > MAX_SAMPLES and not args.allow_large:
        raise UsageError(
            f"this suite has {samples:,} samples (more than {MAX_SAMPLES:,}); "
            "pass --allow-large if you mean it"
        )
    return samples


def eval_options(args: argparse.Namespace, worlds: int, samples: int) -> dict[str, Any]:
    """`eval_set`'s keyword arguments (the model and log dir aside), defaults filled in."""
    from checkout_consent.runtime.runner import log_buffer

    return {
        "epochs": args.epochs,
        "limit": args.limit,
        "max_tasks": args.max_tasks or worlds,
        "max_connections": args.max_connections or MAX_CONNECTIONS,
        "max_samples": args.max_samples or SAMPLES_PER_WORLD,
        "log_buffer": args.log_buffer or log_buffer(samples),
        "model_base_url": args.model_base_url,
        "model_args": model_args(args.M),
    }


def plain_command(args: argparse.Namespace, tasks: dict[str, Any], options: dict[str, Any]) -> str:
    """The `inspect eval-set` command line that is this eval set."""
    line = ["inspect", "eval-set", *(registered(t.name) for t in tasks.values())]
    line += ["--model", args.model, "--log-dir", args.log_dir]
    line += [f"-T{item}" for item in dict.fromkeys(args.T or [])]
    line += [f"-M{item}" for item in args.M or []]
    chosen = selection(args, tasks, plain=True)
    if chosen is not None:
        line += ["--sample-id", ",".join(chosen)]
    for key in ("epochs", "limit", "max_tasks", "max_connections", "max_samples", "log_buffer"):
        if options[key] is not None:
            line += [f"--{key.replace('_', '-')}", str(options[key])]
    if options["model_base_url"]:
        line += ["--model-base-url", options["model_base_url"]]
    return shlex.join(line)


def expectations(
    args: argparse.Namespace, worlds: list[World], tasks: dict[str, Any]
) -> dict[str, tuple[World, Any]]:
    """Task name -> (its world, what a log of this run of it must show: runtime/resume)."""
    from checkout_consent.runtime.resume import expected

    out = {}
    for world, task in zip(worlds, tasks.values(), strict=True):
        ids = [str(s.id) for s in task.dataset]
        chosen = shard_of(ids, args.shard) if args.shard else ids[: args.limit or len(ids)]
        count = len(chosen) * (args.epochs or task.epochs or 1)
        out[task.name.rsplit("/", 1)[-1]] = (world, expected(task, args.model, count))
    return out


def set_aside(args: argparse.Namespace, wanted: dict[str, tuple[World, Any]]) -> None:
    """Every log this run would reuse is checked first; one that fails is set aside (resume)."""
    from checkout_consent.runtime.resume import ResumeRefused
    from checkout_consent.runtime.resume import set_aside as vet

    try:
        refused = vet(args.log_dir, wanted)
    except ResumeRefused as error:
        raise UsageError(f"suite: refused to resume {args.log_dir}: {error}") from None
    for line in refused:
        err(f"suite: refused log {line}")


def _report(
    args: argparse.Namespace,
    wanted: dict[str, tuple[World, Any]],
    tasks: dict[str, Any],
    ran: list[Any],
) -> int:
    """The summary on stdout and in DIR/suite-summary.json; 2 if unfinished or refused."""
    logs = {str(log.eval.task).rsplit("/", 1)[-1]: log for log in ran}
    rows = []
    for task in tasks.values():
        world, want = wanted[task.name.rsplit("/", 1)[-1]]
        rows.append(suite_summary.world_row(world, task.name, logs.get(want.task), want))
    stale = suite_summary.superseded(args.log_dir, ran)
    doc = suite_summary.document(args.model, rows, stale)
    path = suite_summary.write(args.log_dir, doc)
    print(json.dumps(doc, indent=2, sort_keys=True) if args.json else suite_summary.table(doc))
    err(f"suite: summary {path}; logs {args.log_dir}/ (`inspect view --log-dir {args.log_dir}`)")
    if stale:
        err(
            f"suite: {len(stale)} partial log(s) of an interrupted run, superseded by the "
            f"logs above (listed in the summary; not part of the run): {', '.join(stale)}"
        )
    for row in rows:
        if row["refused"]:
            err(f"suite: {row['world']}: log {row['log']} refused: {row['refused']}")
    if not doc["complete"]:
        unfinished = [r["world"] for r in rows if r["status"] != "success"]
        err(f"suite: {', '.join(unfinished)} did not finish; run the same command again to resume")
        return 2
    return 0


def players(model: str, worlds: list[World]) -> str:
    """The worlds, each with its reference control when the model is `control/reference`."""
    if model != f"control/{EVERY_REFERENCE}":
        return ", ".join(w.name for w in worlds)
    return ", ".join(f"{w.name} ({reference_of(w)})" for w in worlds)


def cmd_suite(args: argparse.Namespace) -> int:
    from checkout_consent.cli.run import sanity

    check_counts(args, (*COUNTS, "limit", "max_tasks", "log_buffer"))
    if not args.print_command:  # before any slow work: building the tasks, sanity
        check_live_key(args, "run the suite with")
    worlds = chosen_worlds(args)
    arguments = world_args(args, worlds)
    tasks = {w.name: built_task(w, arguments[w.name]) for w in worlds}
    samples = _size(args, tasks, selection(args, tasks))
    options = eval_options(args, len(worlds), samples)
    if args.print_command:
        print(plain_command(args, tasks, options))
        return 0
    if args.json and args.display is None:
        args.display = "none"
    for world in worlds:
        sanity(world)
    if any(t.name != registered(t.name) for t in tasks.values()):
        err(
            f"suite: note: Inspect names these tasks without their {PACKAGE}/ prefix (it "
            "sees a source tree, not the installed package), so plain `inspect eval-set` "
            "runs will not share this log dir; run from outside the checkout to share it"
        )
    wanted = expectations(args, worlds, tasks)
    set_aside(args, wanted)
    played = players(args.model, worlds)
    err(f"suite: {args.model} plays {played}: {samples} sample(s) -> {args.log_dir}/")
    from checkout_consent.runtime.runner import run_eval_set

    ran = run_eval_set(
        list(tasks.values()),
        log_dir=args.log_dir,
        model=args.model,
        sample_id=selection(args, tasks),
        display=args.display,
        **options,
    )
    return _report(args, wanted, tasks, ran)


def add_parsers(sub: Any) -> None:
    p = sub.add_parser(
        "suite",
        help="every world for one model, as one resumable Inspect eval set",
        description=__doc__,
    )
    p.add_argument(
        "--model",
        required=True,
        help="any Inspect model (a control plays its family; control/reference, offline and "
        "keyless, plays each world's reference control)",
    )
    p.add_argument(
        "--world",
        action="append",
        choices=[w.name for w in WORLDS],
        help="only this world (repeatable; default: every world on the roster)",
    )
    pick = p.add_mutually_exclusive_group()
    pick.add_argument("--limit", type=int, help="the first N samples of each world")
    pick.add_argument(
        "--shard",
        type=parse_shard,
        metavar="K/N",
        help="shard K of N of every pure world's samples (for runs spread over machines)",
    )
    add_task_arg(p, "task argument, to the worlds that take KEY")
    p.add_argument("-M", action="append", metavar="KEY=VALUE", help="model argument")
    p.add_argument("--model-base-url", help="the provider's base URL")
    p.add_argument("--epochs", type=int, help="epochs of every sample (default: each world's own)")
    p.add_argument("--max-tasks", type=int, help="worlds run at once (default: all of them)")
    p.add_argument(
        "--max-connections",
        type=int,
        help=f"requests in flight to the model (default {MAX_CONNECTIONS})",
    )
    p.add_argument(
        "--max-samples", type=int, help=f"samples in flight per world (default {SAMPLES_PER_WORLD})"
    )
    p.add_argument(
        "--log-buffer",
        type=int,
        help="finished samples held before a log write (Inspect's; what a kill may lose)",
    )
    p.add_argument("--display", default=None, help="Inspect's display (on stderr)")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument(
        "--print-command",
        action="store_true",
        help="print the equivalent `inspect eval-set` command and stop",
    )
    p.add_argument("--allow-large", action="store_true", help="allow more than 10,000 samples")
    p.set_defaults(fn=cmd_suite)
