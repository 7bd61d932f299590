"""Inspect glue: the per-sample Store holds the trace; the current state is its replay.

The trace lives in the Store under RunStore's keys, as plain JSON lists, so the logged
Store holds it and the scorer (live or `inspect score` on a finished log) reads it through
`RunStore`. On the hot path nothing goes through RunStore: `live()` binds the sample's
lists once (held on the sample's Store object, so the binding dies with the sample), and
a call or a turn is one `list.append`. Reading `store_as(RunStore).calls` instead would
re-validate the whole list through a fresh pydantic adapter on every read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from inspect_ai.util import Store, StoreModel, store

from checkout_consent.core.family import FamilySpec as Family
from checkout_consent.core.family import Generation, Scenario
from checkout_consent.core.trace import Call
from checkout_consent.core.world import Step, apply


class RunStore(StoreModel):
    """What a sample records: its scenario, the calls it made, its model turns."""

    scenario: dict[str, Any] = {}
    calls: list[dict[str, Any]] = []
    generations: list[dict[str, Any]] = []


# The Store keys of RunStore's fields (StoreModel namespaces a field as "<class>:<field>").
SCENARIO_KEY, CALLS_KEY, TURNS_KEY = "RunStore:scenario", "RunStore:calls", "RunStore:generations"
_BINDING = "_checkout_consent_live"


@dataclass
class Live:
    """One sample's binding: the Store's own trace lists and the world they make.

    `calls` and `turns` ARE the lists in the Store (appending to them records), and
    `state` is the replay of `calls` up to `length` (a cache: replaying gives the same)."""

    store: Store
    scenario: Scenario
    calls: list[dict[str, Any]]
    turns: list[dict[str, Any]]
    state: Any = None
    length: int = -1

    def valid(self) -> bool:
        """The Store still holds these very lists (nobody replaced them)."""
        data = self.store
        return data.get(CALLS_KEY) is self.calls and data.get(TURNS_KEY) is self.turns


def _bind(s: Store) -> Live:
    raw = s.get(SCENARIO_KEY)
    if not isinstance(raw, dict) or not raw:
        raise RuntimeError("no scenario in the sample's Store (the task's setup did not run)")
    calls, turns = list(s.get(CALLS_KEY) or []), list(s.get(TURNS_KEY) or [])
    s.set(CALLS_KEY, calls)
    s.set(TURNS_KEY, turns)
    live = Live(s, Scenario.model_validate(raw), calls, turns)
    setattr(s, _BINDING, live)
    return live


def live() -> Live:
    """The current sample's binding (made on first use, and again if the Store's lists
    were replaced behind it)."""
    s = store()
    bound: Live | None = getattr(s, _BINDING, None)
    return bound if bound is not None and bound.valid() else _bind(s)


def current_state(family: Family) -> Any:
    """The world as the trace so far makes it (cached; rebuilt by replay on a miss)."""
    run = live()
    if run.length != len(run.calls):
        state = family.initial(run.scenario)
        for raw in run.calls:
            state = apply(family.actions, state, raw["tool"], raw["args"]).state
        run.state, run.length = state, len(run.calls)
    return run.state


def perform(family: Family, tool: str, args: dict[str, Any], origin: str = "agent") -> Step[Any]:
    """Apply one call to the live world and append it to the trace."""
    state = current_state(family)
    run = live()
    step = apply(family.actions, state, tool, args)
    call = Call(tool=tool, args=dict(args), ok=step.ok, observation=step.observation,
                origin=origin)  # type: ignore[arg-type]
    run.calls.append(call.model_dump(mode="json"))
    run.state, run.length = step.state, len(run.calls)
    return step


def record_generation(generation: Generation) -> None:
    live().turns.append(generation.model_dump())
