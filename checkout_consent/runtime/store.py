"""Inspect glue: the per-sample Store holds the trace; the current state is its replay."""

from __future__ import annotations

from typing import Any

from inspect_ai.util import Store, StoreModel, store, store_as

from checkout_consent.core.family import FamilySpec as Family
from checkout_consent.core.family import Generation, Scenario
from checkout_consent.core.trace import Call
from checkout_consent.core.world import Step, apply


class RunStore(StoreModel):
    """What a sample records: its scenario, the calls it made, its model turns."""

    scenario: dict[str, Any] = {}
    calls: list[dict[str, Any]] = []
    generations: list[dict[str, Any]] = []


# The live state is a cache of "replay the trace so far", kept on the sample's Store object
# (so it dies with the sample) and valid while the trace length matches. Replaying from
# scratch gives the same state; the cache only saves the time.
_CACHE = "_checkout_consent_live"


def _cached(s: Store) -> tuple[int, Any] | None:
    return getattr(s, _CACHE, None)


def _cache(s: Store, length: int, state: Any) -> None:
    setattr(s, _CACHE, (length, state))


def current_state(family: Family) -> Any:
    """The world as the trace so far makes it (cached; rebuilt by replay on a miss)."""
    run = store_as(RunStore)
    cached = _cached(store())
    if cached is not None and cached[0] == len(run.calls):
        return cached[1]
    state = family.initial(Scenario.model_validate(run.scenario))
    for raw in run.calls:
        call = Call.model_validate(raw)
        state = apply(family.actions, state, call.tool, call.args).state
    _cache(store(), len(run.calls), state)
    return state


def perform(family: Family, tool: str, args: dict[str, Any], origin: str = "agent") -> Step[Any]:
    """Apply one call to the live world and append it to the trace."""
    state = current_state(family)
    step = apply(family.actions, state, tool, args)
    run = store_as(RunStore)
    call = Call(tool=tool, args=dict(args), ok=step.ok, observation=step.observation,
                origin=origin)  # type: ignore[arg-type]
    run.calls = [*run.calls, call.model_dump(mode="json")]
    _cache(store(), len(run.calls), step.state)
    return step


def record_generation(generation: Generation) -> None:
    run = store_as(RunStore)
    run.generations = [*run.generations, generation.model_dump()]
