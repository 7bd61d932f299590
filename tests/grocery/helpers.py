"""Shared helpers for the grocery tests: scenarios, the offline driver, submissions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from checkout_consent.core.offline import play_and_grade
from checkout_consent.core.scenario import Scenario
from checkout_consent.core.trace import Call, Replay, replay
from checkout_consent.core.world import apply
from checkout_consent.grocery import WORLD, initial
from checkout_consent.grocery.actions import ACTIONS
from checkout_consent.grocery.controls import CONTROLS
from checkout_consent.grocery.record import GroceryRecord
from checkout_consent.grocery.state import State


def scenario(task_id: str, **params: Any) -> Scenario:
    return Scenario(world="grocery", scenario_id=task_id, seed=0, params=params)


def grade(sc: Scenario, result: Replay[State]) -> GroceryRecord:
    """The family's grade (resolving the scenario), with no model turns."""
    return WORLD.grade(sc, result, ())  # type: ignore[return-value]


def run_calls(sc: Scenario, steps: Sequence[tuple[str, dict[str, Any]]]) -> Replay[State]:
    state, calls = initial(sc), []
    for tool, args in steps:
        step = apply(ACTIONS, state, tool, args)
        state = step.state
        calls.append(Call(tool=tool, args=args, ok=step.ok, observation=step.observation))
    return replay(ACTIONS, initial(sc), calls)


def graded(control: str, task_id: str, **params: Any) -> GroceryRecord:
    """A control played by the core offline driver (the Inspect solver's pacing), graded."""
    sc = scenario(task_id, **params)
    return GroceryRecord.model_validate(play_and_grade(WORLD, sc, CONTROLS[control]))


CARD = {
    "model": "test-model",
    "tools": ["search_catalog"],
    "store_snapshot": "catalog-v3.0",
    "seed": 0,
    "time_s": 1.5,
    "token_cost": 0.02,
}


def submission(
    task_id: str, lines: Sequence[tuple[str, int] | tuple[str, int, str]], **cart: Any
) -> dict[str, Any]:
    """A submission dict with a valid agent card."""
    rows = [
        {"sku": ln[0], "quantity": ln[1], **({"dish": ln[2]} if len(ln) > 2 else {})}
        for ln in lines
    ]
    return {"task": task_id, "cart": {"lines": rows, **cart}, "agent_card": dict(CARD)}


def reference_lines(task_id: str, **params: Any) -> list[tuple[str, int, str]]:
    """The reference control's cart lines (sku, packs, dish) for a task."""
    from checkout_consent.grocery.controls.plans import reference_plan

    return [
        (a["sku"], a["quantity"], a["dish"])
        for t, a in reference_plan(scenario(task_id, **params))
        if t == "add_to_cart"
    ]


def reference_submission(task_id: str, **params: Any) -> dict[str, Any]:
    """The reference control's cart as a submission: lines, explanations and omissions."""
    from checkout_consent.grocery.controls.plans import reference_plan

    plan = reference_plan(scenario(task_id, **params))
    return submission(
        task_id,
        reference_lines(task_id, **params),
        substitutions_explained=[a["item"] for t, a in plan if t == "explain_substitution"],
        omissions_flagged=[a["item"] for t, a in plan if t == "flag_omission"],
    )
