"""The pizza family beside its seed (benchmark-apology-pizza 0.1.0): the README table
(`--check`: fail if stale), from executing the controls offline and reading the code."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path
from typing import NamedTuple

from checkout_consent.core import Interval, bootstrap_ci, play_and_grade
from checkout_consent.pizza import WORLD, dataset
from checkout_consent.pizza.authoring.tasks import PUBLIC_SEED
from checkout_consent.pizza.grader import CHECKS
from checkout_consent.pizza.violations import VIOLATIONS
from checkout_consent.runtime.files import readme_main
from checkout_consent.runtime.scorer import provenance

README = Path(__file__).parent.parent / "README.md"
BEGIN, END = "<!-- seed-table:begin -->", "<!-- seed-table:end -->"
SEED_PRINTOUT = ("mock:1", "50.0%", "35.0%–65.0%", "40")  # model, score, 95% CI, tasks
USAGE_FIELDS = (
    "input_tokens",
    "output_tokens",
    "eval_cost_usd",
    "normalized_cost_usd",
    "latency_s",
)
SEED_REMEDIES = {
    "wrong_topping": "remake",
    "late_delivery": "credit",
    "cold_pizza": "remake",
    "missing_item": "refund",
    "wrong_address": "credit",
    "allergen": "escalate",
    "angry_repeat": "credit",
    "fraud_pattern": "escalate",
}


class Row(NamedTuple):
    figure: str
    seed: str
    ours: str
    why: str = "none"


def mock_interval() -> Interval:
    """The default mock over the public split, offline: the seed's `--provider mock` run."""
    mock = WORLD.controls["mock"]
    scores = [play_and_grade(WORLD, s, mock)["score"] for s in dataset.scenarios()]
    return bootstrap_ci(scores, family="pizza")


def printout(ci: Interval) -> tuple[str, str, str, str]:
    return ("control/pizza-mock", f"{ci.mean:.1%}", f"{ci.low:.1%}–{ci.high:.1%}", str(ci.n))


def _coverage() -> list[Row]:
    tasks = list(dataset.public_tasks())
    counts = Counter(t.template for t in tasks)
    remedy = {t.template: t.expected.remedy for t in tasks}
    return [
        Row(
            f"template `{name}`: tasks, remedy",
            f"5, {want}",
            f"{counts[name]}, {remedy.get(name, '-')}",
        )
        for name, want in SEED_REMEDIES.items()
    ]


def _usage() -> Row:
    carried = provenance("control/pizza-mock", 1, ())
    have = [f for f in USAGE_FIELDS if f in carried]
    missing = [f for f in USAGE_FIELDS if f not in carried]
    why = (
        f"{', '.join(missing)} not attached by runtime/scorer.py"
        if missing
        else 'carried beside the record, in `Score.metadata["provenance"]`, not in it: the '
        "record is byte-identical run to run and these are not"
    )
    return Row("usage, cost, latency in each result", ", ".join(USAGE_FIELDS), ", ".join(have), why)


def rows(ci: Interval) -> list[Row]:
    ours = printout(ci)
    amounts = [t.expected.amount_cents for t in dataset.public_tasks()]
    cents = sum(a % 100 != 0 for a in amounts)
    return [
        Row(
            "mock printout: Model",
            SEED_PRINTOUT[0],
            ours[0],
            "our controls are Inspect model names",
        ),
        Row("mock printout: Score", SEED_PRINTOUT[1], ours[1]),
        Row("mock printout: 95% CI", SEED_PRINTOUT[2], ours[2]),
        Row("mock printout: Tasks", SEED_PRINTOUT[3], ours[3]),
        Row("public split seed", "20261015", str(PUBLIC_SEED)),
        Row("tools", "6", str(len(WORLD.actions))),
        Row("equal checks", "4", str(len(CHECKS))),
        Row(
            "breaches that zero a task",
            "5",
            str(len(VIOLATIONS)),
            "`other_order` added: the policy's own \"never act on a different order of the "
            'same customer" (section 1) zeroes a task as the other breaches do',
        ),
        *_coverage(),
        _usage(),
        Row(
            "amounts",
            "whole dollars",
            f"cents ({cents} of {len(amounts)} policy amounts are not whole dollars)",
            "percentages round to the cent, halves up",
        ),
        Row(
            "the customer replies",
            "no",
            "yes (`-T replies=false`: no)",
            "the seed's stated limit is lifted; its setting is one flag away",
        ),
    ]


def table(ci: Interval) -> str:
    lines = ["| figure | seed | ours | difference |", "|---|---|---|---|"]
    lines += [f"| {r.figure} | {r.seed} | {r.ours} | {r.why} |" for r in rows(ci)]
    return "\n".join(lines)


def side_by_side(ci: Interval) -> str:
    names = ("Model", "Score", "95% CI", "Tasks")
    lines = [f"{'':<8} {'seed (benchmark-apology-pizza 0.1.0)':<38} ours"]
    lines += [
        f"{n:<8} {s:<38} {o}" for n, s, o in zip(names, SEED_PRINTOUT, printout(ci), strict=True)
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    stale = "the seed table in the pizza README is out of date"
    return readme_main(argv, __doc__, README, lambda: [(BEGIN, END, table(mock_interval()))], stale)


if __name__ == "__main__":
    sys.exit(main())
