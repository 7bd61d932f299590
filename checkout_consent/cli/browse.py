"""`list`, `show` and `score`: what the families hold, one task in full, and grading a saved
tool log with no model."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from checkout_consent.cli.common import UsageError, err, sample_count, task_args
from checkout_consent.cli.views import views
from checkout_consent.core.family import FamilySpec, Record
from checkout_consent.core.offline import grade_saved
from checkout_consent.families import (
    WORLDS,
    control_registry,
    family,
    names,
    world_for,
    world_of_args,
    worlds_of,
)
from checkout_consent.runtime import untrusted


def cmd_list(args: argparse.Namespace) -> int:
    registry = control_registry()
    for name in [args.family] if args.family else names():
        spec = family(name)
        print(f"{name} (world {spec.world_version}; inspect eval checkout_consent/{spec.task})")
        print(f"  {spec.summary_line}")
        for item in views(spec).list_items():
            print(f"  {item}")
        print("  task parameters (-T):")
        for key, meaning in spec.task_params.items():
            print(f"    {key}: {meaning}")
        print(f"  controls: {', '.join('control/' + c for c in registry.names(name))}")
        for own in worlds_of(name)[1:]:  # a variant: a world of its own, with its task
            print(
                f"  -T scenario={own.variant} (inspect eval checkout_consent/{own.task}): "
                f"world {own.world_version}; {own.summary_line}"
            )
            print(f"    controls: {', '.join(own.controls)}")
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    """One task as the agent meets it. `-T` takes run's options, checked as run checks
    them; `-T scenario=VARIANT` (like `VARIANT:3`) picks that variant's world."""
    spec = family(args.family)
    item = args.item
    if args.T:
        arguments = task_args(args, spec)
        sample_count(spec, arguments)  # every -T value checked as `run` checks it
        world = world_of_args(spec.name, arguments)
        prefix = item.rpartition(":")[0]
        if world.variant is not None and not prefix:
            item = f"{world.variant}:{item}"
        elif world.variant not in (None, prefix):
            raise UsageError(f"{item!r} is not a task of -T scenario={world.variant}")
        for key in {a.partition("=")[0] for a in args.T} - {"scenario"}:
            err(f"show: -T {key} changes how a run plays, not the task shown")
    print(views(world_for(spec.name, item.rpartition(":")[0])).show(item))
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


def _score_submission(spec: FamilySpec, path: str, task: str) -> Record:
    """A submission file scored as the scoring service scores it (same size cap, same
    checks, same family scorer), on the submission's own date; nothing stored."""
    from checkout_consent.serve.api.submission import MAX_BODY, parse_json, score

    def same_task(graded: str) -> None:
        if graded != task:
            raise UsageError(f"the submission is for task {graded[:80]!r}, not {task!r}")

    return score(spec, parse_json(read_capped(path, MAX_BODY)), None, same_task).record


def cmd_score(args: argparse.Namespace) -> int:
    spec = family(args.family)
    if args.cart is not None:  # a submitted cart + agent card: no trace, no model
        if spec.score_submission is None:
            raise UsageError(f"{spec.name} takes no --cart; give a --trace")
        record = _score_submission(spec, args.cart, args.task)
    else:  # graded by the world the task names (a variant's, like `adversary_v1:3`)
        scenario = spec.scenario_for(args.task)
        world = world_for(spec.name, scenario.scenario_id)
        record = grade_saved(world, scenario, read_trace(args.trace))
    print(json.dumps(record, indent=2, sort_keys=True))
    return 0


def _variant_example() -> str:
    """An example of a variant's task id, from the roster (empty without a variant)."""
    variant = next((w for w in WORLDS if w.variant is not None), None)
    return "" if variant is None else f", e.g. `score {variant.name} --task {variant.variant}:3`"


def add_parsers(sub: Any) -> None:
    p = sub.add_parser("list", help="families, scenarios, task parameters and controls")
    p.add_argument("family", nargs="?", choices=names())
    p.set_defaults(fn=cmd_list)
    p = sub.add_parser("show", help="show one task or scenario of a family")
    p.add_argument("family", choices=names())
    p.add_argument("item")
    p.add_argument(
        "-T",
        action="append",
        metavar="KEY=VALUE",
        help="run's task arguments, e.g. -T scenario=adversary_v1",
    )
    p.set_defaults(fn=cmd_show)
    p = sub.add_parser("score", help="grade a saved tool log with no model")
    p.add_argument("family", choices=names())
    p.add_argument(
        "--task",
        required=True,
        help="the task the log is of, as `list FAMILY` names it; a variant's task as "
        f"VARIANT:ITEM, graded by that variant's world{_variant_example()}",
    )
    given = p.add_mutually_exclusive_group(required=True)
    given.add_argument("--trace", help="JSON file: a list of tool calls")
    given.add_argument(
        "--cart",
        help="JSON file: a submitted cart with its agent card "
        "(families that score a submission of their own)",
    )
    p.set_defaults(fn=cmd_score)
