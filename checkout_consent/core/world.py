"""The world contract: frozen state, pure actions returning (new state, observation).

An action is a plain function `action(state, **args) -> Outcome`. Its docstring is the
tool description the model reads. A domain error (the agent's mistake) is raised as
`ActionError`; `apply` turns it into a failed `Step` and the state stays as it was.
Any other exception is a bug and propagates.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping
from typing import Any, Generic, NamedTuple, TypeVar

S = TypeVar("S")
T = TypeVar("T")


def evolve(record: T, **changes: Any) -> T:
    """A copy of a frozen dataclass with some fields changed: `dataclasses.replace`
    without re-running `__init__` (several times faster on the hot path)."""
    new = object.__new__(type(record))
    new.__dict__.update(record.__dict__)
    new.__dict__.update(changes)
    return new


class ActionError(Exception):
    """The agent asked for something the world refuses. Shown to the model; state unchanged."""


class Outcome(NamedTuple, Generic[S]):
    """What an action returns: the next state and what the agent is told."""

    state: S
    observation: str


class Step(NamedTuple, Generic[S]):
    """One applied call: the resulting state, what the agent saw, and whether it succeeded."""

    state: S
    observation: str
    ok: bool


Action = Callable[..., Outcome[Any]]


@functools.cache
def action_params(action: Action) -> tuple[inspect.Parameter, ...]:
    """The parameters an action takes from the agent (everything after `state`)."""
    return tuple(inspect.signature(action).parameters.values())[1:]


@functools.cache
def _names(action: Action) -> tuple[frozenset[str], frozenset[str]]:
    """(every argument name, the required ones) of an action."""
    params = action_params(action)
    return (frozenset(p.name for p in params),
            frozenset(p.name for p in params if p.default is p.empty))


def _bind(action: Action, args: Mapping[str, Any]) -> None:
    allowed, required = _names(action)
    keys = args.keys()
    if not keys <= allowed:
        raise ActionError(f"unexpected argument(s): {', '.join(sorted(keys - allowed))}")
    if not required <= keys:
        raise ActionError(f"missing argument(s): {', '.join(sorted(required - keys))}")


def apply(actions: Mapping[str, Action], state: S, tool: str, args: Mapping[str, Any]) -> Step[S]:
    """Apply one call to `state`. Domain errors leave the state unchanged and ok=False."""
    try:
        action = actions.get(tool)
        if action is None:
            raise ActionError(f"unknown tool {tool!r}; tools are: {', '.join(sorted(actions))}")
        if not isinstance(args, dict | Mapping):
            raise ActionError("arguments must be an object of named values")
        _bind(action, args)
        outcome = action(state, **args)
    except ActionError as err:
        return Step(state, f"Error: {err}", False)
    return Step(outcome.state, outcome.observation, True)
