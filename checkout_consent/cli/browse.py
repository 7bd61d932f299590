"""`list`, `show`, `score` and `rescore`: the families, one task in full, grading a saved
tool log with no model, and re-scoring a finished Inspect log with its world's scorer."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from checkout_consent.cli.common import UsageError, add_task_arg, err, sample_count, task_args
from checkout_consent.core.contract import Record, World
from checkout_consent.core.offline import grade_saved
from checkout_consent.families import names, world_named
from checkout_consent.runtime import untrusted
from checkout_consent.runtime.meta import task_params


def cmd_rescore(args: argparse.Namespace) -> int:
    """`inspect score` of a log with its own world's scorer; prints the re-scored headline."""
    from checkout_consent.core.summary import summary
    from checkout_consent.families import WORLDS
    from checkout_consent.runtime.regrade import rescore_log

    world, log = rescore_log(args.log, args.output_file, WORLDS)
    key = f"{world.name}_scorer"
    got = [(s.scores or {}).get(key) for s in log.samples]
    records = [g.metadata["record"] for g in got if g and "record" in (g.metadata or {})]
    print(f"{args.output_file}: {world.name}, {len(log.samples)} sample(s) re-scored")
    print("  " + summary(world, records).splitlines()[0] if records else "  no sample graded")
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    for name in [args.family] if args.family else names():
        world = world_named(name)
        print(f"{name} (world {world.world_version}; inspect eval checkout_consent/{world.name})")
        print(f"  {world.summary_line}")
        for item in world.views.list_items():
            print(f"  {item}")
        print("  task parameters (-T):")
        for key, meaning in task_params(world).items():
            print(f"    {key}: {meaning}")
        own = [f"control/{world.family}-{c}" for c in sorted(world.controls)]
        print(f"  controls: {', '.join(own)}")
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    """One task as the agent meets it; `-T` checked as `run` checks it."""
    world = world_named(args.family)
    item = args.item
    if args.T:
        arguments = task_args(args, world)
        sample_count(world, arguments)  # every -T value checked as `run` checks it
        for key in {a.partition("=")[0] for a in args.T} - {"scenario"}:
            err(f"show: -T {key} changes how a run plays, not the task shown")
    print(world.views.show(item))
    return 0


MAX_TRACE_BYTES = 20 * 2**20  # a saved trace larger than this is refused unread


def read_capped(path: str, limit: int) -> bytes:
    """A regular file's bytes, refused unread past `limit` (UsageError naming the file)."""
    try:
        return untrusted.read_bytes(Path(path), limit)
    except untrusted.Refused as err:
        raise UsageError(f"{err}; not graded") from None


def read_trace(path: str) -> Any:
    """A saved trace file as JSON, or a UsageError naming the file and the problem."""
    raw = read_capped(path, MAX_TRACE_BYTES)
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise UsageError(f"{path}: not UTF-8 text (a binary file?)") from None
    except json.JSONDecodeError as error:
        raise UsageError(f"{path}: not JSON ({error.msg}, line {error.lineno})") from None
    except RecursionError:
        raise UsageError(f"{path}: JSON nested too deeply") from None


def _score_submission(world: World, path: str, task: str) -> Record:
    """A submission file scored as the scoring service scores it; nothing stored."""
    from checkout_consent.serve.api.submission import MAX_BODY, parse_json, score

    def same_task(graded: str) -> None:
        if graded != task:
            raise UsageError(f"the submission is for task {graded[:80]!r}, not {task!r}")

    return score(world, parse_json(read_capped(path, MAX_BODY)), None, same_task).record


def cmd_score(args: argparse.Namespace) -> int:
    world = world_named(args.family)
    if args.cart is not None:  # a submitted cart + agent card: no trace, no model
        if world.score_submission is None:
            raise UsageError(f"{world.name} takes no --cart; give a --trace")
        record = _score_submission(world, args.cart, args.task)
    else:
        record = grade_saved(world, world.dataset.task(args.task), read_trace(args.trace))
    print(json.dumps(record, indent=2, sort_keys=True))
    return 0


def add_parsers(sub: Any) -> None:
    p = sub.add_parser("list", help="families, scenarios, task parameters and controls")
    p.add_argument("family", nargs="?", choices=names())
    p.set_defaults(fn=cmd_list)
    p = sub.add_parser("show", help="show one task or scenario of a family")
    p.add_argument("family", choices=names())
    p.add_argument("item")
    add_task_arg(p, "run's task arguments, e.g. -T seeds=3")
    p.set_defaults(fn=cmd_show)
    p = sub.add_parser(
        "rescore",
        help="re-score a finished .eval log with its world's scorer (inspect score, one-line "
        "errors)",
    )
    p.add_argument("log", help="an Inspect .eval log of a suite task")
    p.add_argument("--output-file", required=True, help="where to write the re-scored log")
    p.set_defaults(fn=cmd_rescore)
    p = sub.add_parser("score", help="grade a saved tool log with no model")
    p.add_argument("family", choices=names())
    p.add_argument(
        "--task",
        required=True,
        help="the task the log is of, as `list WORLD` names it",
    )
    given = p.add_mutually_exclusive_group(required=True)
    given.add_argument("--trace", help="JSON file: a list of tool calls")
    given.add_argument(
        "--cart",
        help="JSON file: a submitted cart with its agent card "
        "(families that score a submission of their own)",
    )
    p.set_defaults(fn=cmd_score)
