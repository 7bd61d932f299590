"""Play a control policy against the pure world, without Inspect: the same day loop as
the task's solver, for fast tests and the throughput benchmark."""

from __future__ import annotations

from checkout_consent.core.controls import CallRequest, Msg, Policy, call_ids
from checkout_consent.core.family import Scenario
from checkout_consent.core.trace import Call
from checkout_consent.core.world import apply
from checkout_consent.storefront import days, prompts
from checkout_consent.storefront.actions import ACTIONS
from checkout_consent.storefront.generate import generate
from checkout_consent.storefront.state import State


def _turn(policy: Policy, transcript: list[Msg], state: State, trace: list[Call]) -> State:
    reply = policy(transcript)
    requests = tuple(CallRequest(i, t, a) for i, (t, a) in
                     zip(call_ids(transcript, reply), reply.calls, strict=True))
    transcript.append(Msg("assistant", reply.text, requests))
    for req in requests:
        step = apply(ACTIONS, state, req.tool, req.args)
        trace.append(Call(tool=req.tool, args=req.args, ok=step.ok,
                          observation=step.observation))
        transcript.append(Msg("tool", step.observation, call_id=req.id, error=not step.ok))
        state = step.state
    if not requests:
        transcript.append(Msg("user", prompts.NUDGE))
    return state


def play(policy: Policy, scenario: Scenario, turns_per_day: int) -> tuple[State, list[Call]]:
    """Run `policy` through every day; return the final state and the trace."""
    state = generate(scenario)
    trace: list[Call] = []
    transcript = [Msg("system", prompts.SYSTEM), Msg("user", prompts.briefing(scenario))]
    while not state.over:
        day = state.day
        transcript.append(Msg("user", f"Day {day} of {state.setup.days}.\n"
                                      f"{days.morning_report(state)}"))
        for _ in range(turns_per_day):
            state = _turn(policy, transcript, state, trace)
            if state.day != day or state.over:
                break
        if state.day == day and not state.over:
            step = apply(ACTIONS, state, "end_day", {})
            trace.append(Call(tool="end_day", args={}, ok=step.ok,
                              observation=step.observation, origin="solver"))
            state = step.state
    return state, trace
