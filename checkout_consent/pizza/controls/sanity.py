"""The pizza control ladder's sanity check, asserted before any result is reported."""

from __future__ import annotations

from collections.abc import Sequence

from checkout_consent.core import ControlRecords, Record

SANITY_CONTROLS = ("noop", "reference", "mock", "before-lookup", "duplicate", "over-cap", "mixed")
PUBLIC_TASKS = 40
BAD_CONTROLS = {
    "before-lookup": "action_before_verification",
    "duplicate": "duplicate_side_effect",
    "over-cap": "cap_breach",
    "mixed": "mixed_remedy",
}


def _scores(rows: Sequence[Record]) -> list[float]:
    return [float(r["score"]) for r in rows]


def check_sanity(records: ControlRecords) -> list[str]:
    """noop scores 0, reference 100% on every task, mock in between, each bad control 0
    with its violation named on every task."""
    problems: list[str] = []
    ref = records.get("reference", [])
    if len(ref) != PUBLIC_TASKS or any(s != 1.0 for s in _scores(ref)):
        problems.append(f"reference: expected 1.0 on {PUBLIC_TASKS} tasks, got {_scores(ref)}")
    if not records.get("noop") or any(s != 0.0 for s in _scores(records["noop"])):
        problems.append("noop: expected 0 on every task")
    mock = _scores(records.get("mock", []))
    if not (1.0 in mock and 0.0 in mock):
        problems.append("mock: expected some tasks passed and some failed")
    for name, violation in BAD_CONTROLS.items():
        rows = records.get(name, [])
        wrong = [
            r["task_id"]
            for r in rows
            if r["score"] != 0.0 or violation not in r["policy_violations"]
        ]
        if not rows or wrong:
            problems.append(f"{name}: expected 0 with {violation} on every task; not on {wrong}")
    return problems
