"""Scripted play of the v1 world (harness). A plan is a generator per day: it yields calls
and is sent the state after each; `simulate` runs it on the pure world, `as_policy` replays
each simulated day's calls in one turn, so the run is the simulation's, call for call."""

from __future__ import annotations

import functools
from collections.abc import Callable, Generator, Sequence
from typing import Any, NamedTuple

from checkout_consent.core import Msg, Policy, Reply, Scenario, apply
from checkout_consent.storefront.controls import today
from checkout_consent.storefront_v1 import dataset
from checkout_consent.storefront_v1.actions import ACTIONS
from checkout_consent.storefront_v1.state import State

Call = tuple[str, dict[str, Any]]
DayPlan = Generator[Call, State, None]
Plan = Callable[[State], DayPlan]  # the state at the day's start -> that day's calls
MAX_CALLS_PER_DAY = 100


class Simulated(NamedTuple):
    days: tuple[tuple[Call, ...], ...]  # the calls of each day, end_day left out
    final: State


def simulate(world: State, plan: Plan) -> Simulated:
    """Play `plan` from `world` to the end of the run, ending each day after its calls."""
    state, days = world, []
    while not state.over:
        today: list[Call] = []
        day = plan(state)
        made = next(day, None)
        while made is not None:
            if len(today) == MAX_CALLS_PER_DAY:
                raise RuntimeError(f"a plan made over {MAX_CALLS_PER_DAY} calls on a day")
            state = apply(ACTIONS, state, made[0], made[1]).state
            today.append(made)
            try:
                made = day.send(state)
            except StopIteration:
                made = None
        state = apply(ACTIONS, state, "end_day", {}).state
        days.append(tuple(today))
    return Simulated(tuple(days), state)


def as_policy(plan: Plan) -> Policy:
    """A control that plays `plan`: each day's simulated calls and end_day, in one turn."""

    @functools.lru_cache(maxsize=64)
    def days(seed: int) -> tuple[tuple[Call, ...], ...]:
        return simulate(dataset.world(dataset.scenario(seed)), plan).days

    def policy(scenario: Scenario, transcript: Sequence[Msg]) -> Reply:
        dataset.resolve(scenario)  # refuses another scenario's reference
        day, _, made = today(transcript)
        run = days(scenario.seed)
        if not 1 <= day <= len(run):
            raise ValueError(f"day {day} is not a day of this {len(run)}-day run")
        calls = run[day - 1]
        return Reply(calls=(*calls[made:], ("end_day", {})))

    return policy
