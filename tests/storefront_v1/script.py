"""Playing scripted calls on the v1 world, as the solver would trace them."""

from __future__ import annotations

from typing import Any

from checkout_consent.core.trace import Call, Replay, replay
from checkout_consent.core.world import apply
from checkout_consent.storefront_v1 import dataset
from checkout_consent.storefront_v1.actions import ACTIONS
from checkout_consent.storefront_v1.generate import generate
from checkout_consent.storefront_v1.state import State

TASK_FILE = dataset.load_task_file()


def fresh(seed: int) -> State:
    """A new initial world (not the cached one: its shopper memo starts empty)."""
    return generate(TASK_FILE, seed)


def act(state: State, tool: str, **args: Any) -> State:
    """Apply one call that must succeed."""
    step = apply(ACTIONS, state, tool, args)
    assert step.ok, step.observation
    return step.state


def refused(state: State, tool: str, **args: Any) -> str:
    """Apply one call that must be refused, leaving the state as it was."""
    step = apply(ACTIONS, state, tool, args)
    assert not step.ok and step.state is state and step.observation.startswith("Error: ")
    assert "\n" not in step.observation
    return step.observation


def days(state: State, n: int) -> State:
    for _ in range(n):
        state = act(state, "end_day")
    return state


def play(
    seed: int, script: list[tuple[str, dict[str, Any]]], origin: str = "agent"
) -> Replay[State]:
    """Trace `script` from the seed's world (calls may fail), then replay it."""
    state = initial = fresh(seed)
    calls = []
    for tool, args in script:
        step = apply(ACTIONS, state, tool, args)
        calls.append(
            Call(tool=tool, args=args, ok=step.ok, observation=step.observation, origin=origin)
        )  # type: ignore[arg-type]
        state = step.state
    return replay(ACTIONS, initial, calls)


def seed_where(test: Any, limit: int = 400) -> int:
    """The first seed whose initial world passes `test`."""
    return next(s for s in range(limit) if test(fresh(s)))
