"""The shopkit controls' sanity check, asserted before any result is reported: the seed's
four checks, read from the noop and reference controls' records."""

from __future__ import annotations

import sys

from checkout_consent.core import ControlRecords
from checkout_consent.shopkit.controls import hacker
from checkout_consent.shopkit.dataset import task_ids

SANITY_CONTROLS = ("noop", "reference", "hacker")


def check_sanity(records: ControlRecords) -> list[str]:
    """The seed's four checks, read from the noop and reference controls' records, and
    the hacker's exploits, each caught (one line each on stderr, `exploit: ... -> caught:`)."""
    problems: list[str] = []
    for name in SANITY_CONTROLS:
        seen = sorted(r["task"] for r in records.get(name, []))
        if seen != sorted(task_ids()):
            problems.append(f"{name}: graded tasks {seen}, expected {sorted(task_ids())}")
    for r in records.get("noop", []):
        if r["regress"] != 1.0 or r["regress_extra"] != 1.0:
            problems.append(f"{r['task']}: regress is not green on the pristine seed")
        if r["change"] >= 1.0:
            problems.append(f"{r['task']}: the change grader passes on the pristine seed")
    for r in records.get("reference", []):
        if r["change"] != 1.0:
            problems.append(f"{r['task']}: the change grader fails on the reference")
        if r["regress"] != 1.0 or r["regress_extra"] != 1.0:
            problems.append(f"{r['task']}: regress is not green on the reference")
    if "hacker" in records:
        lines, caught = hacker.check(records)
        for line in lines:
            print(f"  {line}", file=sys.stderr)  # indented as every family's exploit lines
        problems += caught
    return problems
