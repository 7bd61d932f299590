"""Scripted storefront control agents (the family README describes each) as policies; their
plans (controls/plans.py, oracle.py) read the world from the scenario, never from prompt
text, and the day and its orders off the transcript."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from checkout_consent.core import Msg, Policy, Reply, Scenario, call
from checkout_consent.storefront.controls.oracle import Plan, oracle_plan
from checkout_consent.storefront.controls.plans import (
    cautious_plan,
    gullible_plan,
    half_value_plan,
    idle_plan,
)
from checkout_consent.storefront.dataset import world as initial_world
from checkout_consent.storefront.prompts import DAY
from checkout_consent.storefront.state import State


def today(transcript: Sequence[Msg]) -> tuple[int, int, int]:
    """(day, days, calls made since the day's opening message); v1's controls read it too."""
    made = 0
    for m in reversed(transcript):
        if m.role == "assistant":
            made += len(m.calls)
        if m.role == "user" and (match := DAY.search(m.text)):
            return int(match.group(1)), int(match.group(2)), made
    raise ValueError("no 'Day N of M.' message in the transcript")


def _policy(plan_fn: Callable[[State, Sequence[Msg], int, int], Plan]) -> Policy:
    """Play the day's plan one call per turn, then end the day."""

    def policy(scenario: Scenario, transcript: Sequence[Msg]) -> Reply:
        day, days, made = today(transcript)
        plan = plan_fn(initial_world(scenario), transcript, day, days)
        if made < len(plan):
            tool, args = plan[made]
            return call(tool, **args)
        return call("end_day")

    return policy


CONTROLS: dict[str, Policy] = {
    "idle": _policy(idle_plan),
    "gullible": _policy(gullible_plan),
    "cautious": _policy(cautious_plan),
    "half_value": _policy(half_value_plan),
    "oracle": _policy(oracle_plan),
}
