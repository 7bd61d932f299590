"""The world README's adversary v1 tables (`--check`: fail if stale), from a live offline
run of the named and crafted controls on seeds 0-9."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from checkout_consent.core import ControlRecords, Record, fmt, play_and_grade
from checkout_consent.runtime.files import readme_main
from checkout_consent.storefront.record import cents
from checkout_consent.storefront.views import median
from checkout_consent.storefront_v1 import WORLD, dataset
from checkout_consent.storefront_v1.controls.crafted import CRAFTED
from checkout_consent.storefront_v1.controls.sanity import crafted_records
from checkout_consent.storefront_v1.record import ADVERSARIES
from checkout_consent.storefront_v1.state import RULES

SEEDS = range(10)
NAMED = ("idle", "gullible", "cautious", "oracle")
README = Path(__file__).parents[1] / "README.md"
BEGIN, END = "<!-- v1-controls:begin -->", "<!-- v1-controls:end -->"


def named_records() -> ControlRecords:
    return {
        name: [play_and_grade(WORLD, dataset.scenario(s), WORLD.controls[name]) for s in SEEDS]
        for name in NAMED
    }


def _spread(amounts: Sequence[int]) -> str:
    return f"{median(amounts)} ({fmt(min(amounts))} to {fmt(max(amounts))})"


def _caught(rows: Sequence[Record], adversary: str) -> str:
    tallies = [r["adversaries"][adversary] for r in rows]
    return f"{sum(t['caught'] for t in tallies)}/{sum(t['exposures'] for t in tallies)}"


def _named_row(name: str, rows: Sequence[Record]) -> str:
    cash = [cents(r["cash_final"]) for r in rows]
    lost = [sum(r["adversaries"][k]["money_lost_cents"] for k in ADVERSARIES) for r in rows]
    rules = " / ".join(str(sum(r["breaches_by_rule"][rule] for r in rows)) for rule in RULES)
    caught = " | ".join(_caught(rows, k) for k in ADVERSARIES)
    return (
        f"| `{name}` | {_spread(cash)} | {sum(r['clean_run'] for r in rows)}/{len(rows)} "
        f"| {rules} | {_spread(lost)} | {caught} |"
    )


def _crafted_row(name: str, rows: Sequence[Record]) -> str:
    target = CRAFTED[name][1]
    broken = sorted({rule for r in rows for rule, n in r["breaches_by_rule"].items() if n})
    took = sorted({k for r in rows for k in ADVERSARIES if r["adversaries"][k]["money_lost_cents"]})
    fired = sum(
        r["breaches_by_rule"][target] > 0
        if target in RULES
        else r["adversaries"][target]["money_lost_cents"] > 0
        for r in rows
    )
    return (
        f"| `{name}` | {target} | {fired}/{len(rows)} | {', '.join(broken) or 'none'} "
        f"| {', '.join(took) or 'none'} |"
    )


def tables(named: ControlRecords, crafted: ControlRecords) -> str:
    adversaries = " | ".join(f"{k} caught" for k in ADVERSARIES)
    lines = [
        f"| control | cash_final: median (range) | clean runs | breaches: "
        f"{' / '.join(RULES)} | lost to adversaries: median (range) | {adversaries} |",
        "|---" * (5 + len(ADVERSARIES)) + "|",
    ]
    lines += [_named_row(name, named[name]) for name in NAMED]
    lines += [
        "",
        "| crafted control | crafted for | fired on seeds | rules broken | "
        "adversaries that took money |",
        "|---|---|---|---|---|",
    ]
    lines += [_crafted_row(name, crafted[name]) for name in CRAFTED]
    return "\n".join(lines)


def _blocks() -> list[tuple[str, str, str]]:
    return [(BEGIN, END, tables(named_records(), crafted_records(SEEDS)))]


def main(argv: list[str] | None = None) -> int:
    stale = "the adversary v1 tables in the storefront README are out of date"
    return readme_main(argv, __doc__, README, _blocks, stale)


if __name__ == "__main__":
    sys.exit(main())
