"""Inspect glue: the per-sample Store holds the trace; the current state is its replay.
During the run the trace is kept beside the Store (`live()`) and `flush()` writes it in:
Inspect snapshots the whole Store around every tool event, so a trace inside it made
each call cost in proportion to the calls before it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from inspect_ai.util import Store, StoreModel, store

from checkout_consent.core.contract import Generation, World
from checkout_consent.core.scenario import Scenario
from checkout_consent.core.trace import traced
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
    """One sample's binding: its trace lists, and `state` as of `length` calls (a cache)."""

    store: Store
    scenario: Scenario
    calls: list[dict[str, Any]]
    turns: list[dict[str, Any]]
    state: Any = None
    length: int = -1


def _bind(s: Store) -> Live:
    raw = s.get(SCENARIO_KEY)
    if not isinstance(raw, dict) or not raw:
        raise RuntimeError("no scenario in the sample's Store (the task's setup did not run)")
    calls, turns = list(s.get(CALLS_KEY) or []), list(s.get(TURNS_KEY) or [])
    live = Live(s, Scenario.model_validate(raw), calls, turns)
    setattr(s, _BINDING, live)
    return live


def live() -> Live:
    """The current sample's binding (made on first use)."""
    s = store()
    bound: Live | None = getattr(s, _BINDING, None)
    return bound if bound is not None else _bind(s)


def flush(s: Store) -> None:
    """Write the sample's trace into its Store (a no-op for a Store never bound)."""
    bound: Live | None = getattr(s, _BINDING, None)
    if bound is not None:
        s.set(CALLS_KEY, list(bound.calls))
        s.set(TURNS_KEY, list(bound.turns))


def current_state(world: World) -> Any:
    """The world as the trace so far makes it (cached; rebuilt by replay on a miss)."""
    run = live()
    if run.length != len(run.calls):
        state = world.initial(run.scenario)
        for raw in run.calls:
            state = apply(world.actions, state, raw["tool"], raw["args"]).state
        run.state, run.length = state, len(run.calls)
    return run.state


def perform(world: World, tool: str, args: dict[str, Any], origin: str = "agent") -> Step[Any]:
    """Apply one call to the live world and append it to the trace."""
    state = current_state(world)
    run = live()
    step = apply(world.actions, state, tool, args)
    run.calls.append(traced(tool, args, step, origin).model_dump(mode="json"))  # type: ignore[arg-type]
    run.state, run.length = step.state, len(run.calls)
    return step


def record_generation(generation: Generation) -> None:
    """Append one model turn to the trace (`detail` only when set)."""
    live().turns.append(
        generation.model_dump(exclude={"detail"} if not generation.detail else None)
    )
