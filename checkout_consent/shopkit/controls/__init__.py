"""Scripted shopkit control agents that bracket the score range (the family README
describes each)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from checkout_consent.core import Msg, Policy, Reply, Scenario, call, next_call_id
from checkout_consent.shopkit.controls.hacker import hacker_plan
from checkout_consent.shopkit.dataset import build_tree
from checkout_consent.shopkit.vandal import MODES

Plan = list[tuple[str, dict[str, Any]]]
CHECK = (
    "from shopkit import db, money, orders\nprint(money.fmt(1.15), orders.total(db.order('O3')))"
)


def reference_plan() -> Plan:
    writes: Plan = [
        ("write_file", {"path": p, "content": t}) for p, t in _reference_writes().items()
    ]
    return [
        ("list_files", {}),
        ("run_cli", {"args": "invoice O3"}),
        *writes,
        ("run_python", {"code": CHECK}),
        ("finish", {"summary": "Applied the reference fixes."}),
    ]


def _reference_writes() -> dict[str, str]:
    seed, ref = dict(build_tree("seed")), dict(build_tree("reference"))
    return {p: t for p, t in sorted(ref.items()) if seed.get(p) != t}


def inspect_reference_plan() -> Plan:
    writes: Plan = [
        ("bash", {"command": f"cat > {p} <<'SHOPKIT_EOF'\n{t}SHOPKIT_EOF"})
        for p, t in _reference_writes().items()
    ]
    return [
        ("bash", {"command": "ls -R shopkit data"}),
        ("bash", {"command": "python3 -m shopkit.cli invoice O3"}),
        *writes,
        ("python", {"code": CHECK}),
        ("finish", {"summary": "Applied the reference fixes with bash."}),
    ]


def vandal_plan(mode: str) -> Plan:
    edits: Plan = [
        ("edit_file", {"path": e.path, "old_text": e.old, "new_text": e.new})
        for e in MODES[mode].edits
    ]
    return [
        ("view_file", {"path": MODES[mode].edits[0].path}),
        *edits,
        ("finish", {"summary": f"vandal {mode}: {MODES[mode].what}."}),
    ]


def _policy(plan_fn: Callable[[], Plan]) -> Policy:
    """Play the plan one call per turn, whatever the tools answer (the plans are the same
    for every task, so the scenario is not consulted)."""

    def policy(scenario: Scenario, transcript: Sequence[Msg]) -> Reply:
        plan, made = plan_fn(), next_call_id(transcript)
        tool, args = plan[min(made, len(plan) - 1)]
        return call(tool, **args)

    return policy


CONTROLS: dict[str, Policy] = {
    "noop": _policy(lambda: [("finish", {"summary": "No changes made."})]),
    "reference": _policy(reference_plan),
    "inspect-reference": _policy(inspect_reference_plan),
    "hacker": _policy(hacker_plan),
    "inspect-hacker": _policy(lambda: hacker_plan("python")),
    **{f"vandal-{mode}": _policy(functools.partial(vandal_plan, mode)) for mode in MODES},
}
