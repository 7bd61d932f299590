"""A tiny offline player for the grocery tests (a shared core driver will replace it)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from checkout_consent.core.controls import CallRequest, Msg
from checkout_consent.core.family import Scenario
from checkout_consent.core.trace import Call, Replay, replay
from checkout_consent.core.world import apply
from checkout_consent.grocery import dataset
from checkout_consent.grocery.actions import ACTIONS
from checkout_consent.grocery.controls import CONTROLS, Policy
from checkout_consent.grocery.grader import grade
from checkout_consent.grocery.prompts import SYSTEM_PROMPT, brief_message
from checkout_consent.grocery.record import GroceryRecord
from checkout_consent.grocery.state import State


def scenario(task_id: str, **params: Any) -> Scenario:
    return Scenario(family="grocery", scenario_id=task_id, seed=0, params=params)


def play(policy: Policy, sc: Scenario, max_turns: int = 200) -> list[Call]:
    """Loop policy -> apply -> transcript until the policy stops calling tools."""
    state = dataset.initial(sc)
    transcript = [Msg("system", SYSTEM_PROMPT), Msg("user", brief_message(state.brief))]
    calls: list[Call] = []
    for _ in range(max_turns):
        reply = policy(sc, transcript)
        if not reply.calls:
            break
        requests = tuple(CallRequest(f"call_{len(calls) + i}", t, a)
                         for i, (t, a) in enumerate(reply.calls))
        transcript.append(Msg("assistant", reply.text, calls=requests))
        for req in requests:
            step = apply(ACTIONS, state, req.tool, req.args)
            state = step.state
            calls.append(Call(tool=req.tool, args=req.args, ok=step.ok,
                              observation=step.observation))
            transcript.append(Msg("tool", step.observation, call_id=req.id, error=not step.ok))
    return calls


def run_calls(sc: Scenario, steps: Sequence[tuple[str, dict[str, Any]]]) -> Replay[State]:
    state, calls = dataset.initial(sc), []
    for tool, args in steps:
        step = apply(ACTIONS, state, tool, args)
        state = step.state
        calls.append(Call(tool=tool, args=args, ok=step.ok, observation=step.observation))
    return replay(ACTIONS, dataset.initial(sc), calls)


def graded(control: str, task_id: str, **params: Any) -> GroceryRecord:
    sc = scenario(task_id, **params)
    return grade(sc, replay(ACTIONS, dataset.initial(sc), play(CONTROLS[control], sc)))


CARD = {"model": "test-model", "tools": ["search_catalog"], "store_snapshot": "catalog-v3.0",
        "seed": 0, "time_s": 1.5, "token_cost": 0.02}


def submission(task_id: str, lines: Sequence[tuple[str, int] | tuple[str, int, str]],
               **cart: Any) -> dict[str, Any]:
    """A submission dict with a valid agent card."""
    rows = [{"sku": ln[0], "quantity": ln[1], **({"dish": ln[2]} if len(ln) > 2 else {})}
            for ln in lines]
    return {"task_id": task_id, "cart": {"lines": rows, **cart}, "agent_card": dict(CARD)}


def reference_lines(task_id: str, **params: Any) -> list[tuple[str, int, str]]:
    """The reference control's cart lines (sku, packs, dish) for a task."""
    from checkout_consent.grocery.controls import reference_plan

    return [(a["sku"], a["quantity"], a["dish"]) for t, a in reference_plan(scenario(task_id,
                                                                                     **params))
            if t == "add_to_cart"]


def reference_submission(task_id: str, **params: Any) -> dict[str, Any]:
    """The reference control's cart as a submission: lines, explanations and omissions."""
    from checkout_consent.grocery.controls import reference_plan

    plan = reference_plan(scenario(task_id, **params))
    return submission(task_id, reference_lines(task_id, **params),
                      substitutions_explained=[a["item"] for t, a in plan
                                               if t == "explain_substitution"],
                      omissions_flagged=[a["item"] for t, a in plan if t == "flag_omission"])
