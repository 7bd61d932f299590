"""The pizza family as the CLI sees it: sanity, printed lines, summary, list, show, score,
and the `pizza generate` verb."""

from __future__ import annotations

import argparse
from typing import Any

from checkout_consent.core.offline import grade_saved
from checkout_consent.core.surface import Surface
from checkout_consent.pizza import FAMILY, scenario_for
from checkout_consent.pizza.report import check_sanity, line, summary
from checkout_consent.pizza.select import as_flag

CONTROLS = ("noop", "reference", "mock", "before-lookup", "duplicate", "over-cap", "mixed")


def list_items() -> list[str]:
    from checkout_consent.pizza.data import public_tasks

    return [f"{t.task_id:<18} {t.title:<32} expected {t.expected.remedy}"
            for t in public_tasks()]


def show(task_id: str) -> str:
    from checkout_consent.pizza.data import find_task
    from checkout_consent.pizza.report import describe

    return describe(find_task(task_id))


def score_trace(task_id: str, trace: Any) -> dict[str, Any]:
    """Grade a saved tool log of one task, offline: a list of calls, or {"calls": [...],
    "replies": bool}. Calls that carry no observation are replayed as given; calls that
    carry one must replay to it (or scoring refuses)."""
    from checkout_consent.pizza.data import find_task

    replies = as_flag(trace.get("replies", True)) if isinstance(trace, dict) else True
    return grade_saved(FAMILY, scenario_for(find_task(task_id), replies=replies), trace)


def _generate(args: argparse.Namespace) -> int:
    from checkout_consent.pizza.data import write_split

    path = write_split(args.seed, args.split)
    print(f"wrote {path}")
    return 0


def add_commands(parser: argparse.ArgumentParser) -> None:
    verbs = parser.add_subparsers(dest="pizza_command", required=True)
    gen = verbs.add_parser("generate", help="generate a split of tasks from a seed")
    gen.add_argument("--seed", type=int, required=True)
    gen.add_argument("--split", choices=["public", "hidden"], default="hidden")
    gen.set_defaults(fn=_generate)


SURFACE = Surface(
    family=FAMILY,
    task="pizza",
    task_args={},
    controls=CONTROLS,
    reference_control="reference",
    check_sanity=check_sanity,
    line=line,
    summary=summary,
    list_items=list_items,
    add_commands=add_commands,
    show=show,
    score_trace=score_trace,
)
