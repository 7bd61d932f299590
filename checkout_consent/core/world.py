"""The world contract: frozen state, pure actions `action(state, **args) -> Outcome` whose
docstring is the tool description. The agent's mistake is an `ActionError` (`apply`
leaves the state as it was); any other exception is a bug and propagates."""

from __future__ import annotations

import functools
import inspect
import math
import typing
from collections.abc import Callable, Mapping
from itertools import repeat
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


MAX_NUMBER = 10**12  # any number beyond this in a tool argument is malformed
MAX_DEPTH = 8  # nesting of lists/objects in one argument


@functools.cache
def _hints(action: Action) -> dict[str, Any]:
    """The declared type of each argument (Any where the action declares none)."""
    try:
        hints = typing.get_type_hints(action)
    except (NameError, TypeError):  # an unresolvable annotation: check values only
        hints = {}
    return {p.name: hints.get(p.name, Any) for p in action_params(action)}


def argument_hint(action: Action, name: str) -> Any:
    """The declared type of one argument of an action (Any if none is declared)."""
    return _hints(action).get(name, Any)


def check_value(name: str, value: object, depth: int = 0) -> None:
    """A JSON value with no NaN, no infinity and no number beyond MAX_NUMBER, nested at
    most MAX_DEPTH deep (ActionError otherwise). Stored traces then round-trip exactly."""
    if value is None or isinstance(value, bool | str):
        return
    if isinstance(value, int | float):
        if isinstance(value, float) and not math.isfinite(value):
            raise ActionError(f"{name} must be a finite number, got {value!r}")
        if abs(value) > MAX_NUMBER:
            raise ActionError(f"{name} is out of range (at most {MAX_NUMBER:,} in size)")
        return
    if depth >= MAX_DEPTH:
        raise ActionError(f"{name} is nested too deeply")
    if isinstance(value, list):
        for item in value:
            check_value(name, item, depth + 1)
    elif isinstance(value, dict) and all(isinstance(k, str) for k in value):
        for item in value.values():
            check_value(name, item, depth + 1)
    else:
        raise ActionError(f"{name} must be a JSON value, got {type(value).__name__}")


def check_type(name: str, hint: Any, value: object) -> None:
    """The value fits the argument's declared plain type (a money float may also be text)."""
    number = isinstance(value, int | float) and not isinstance(value, bool)
    if hint is str and not isinstance(value, str):
        raise ActionError(f"{name} must be text, got {value!r}")
    if hint is int and not (
        isinstance(value, int)
        and not isinstance(value, bool)
        or isinstance(value, float)
        and value.is_integer()
    ):
        raise ActionError(f"{name} must be a whole number, got {value!r}")
    if hint is float and not (number or isinstance(value, str)):
        raise ActionError(f"{name} must be a number, got {value!r}")
    if hint is bool and not isinstance(value, bool):
        raise ActionError(f"{name} must be true or false, got {value!r}")


@functools.cache
def _signature(action: Action) -> tuple[frozenset[str], frozenset[str], dict[str, Any]]:
    """(every argument name, the required ones, each one's declared type)."""
    params = action_params(action)
    required = frozenset(p.name for p in params if p.default is p.empty)
    return frozenset(p.name for p in params), required, _hints(action)


def _bind(action: Action, args: Mapping[str, Any]) -> None:
    allowed, required, hints = _signature(action)
    if not args and not required:  # a call without arguments (end_day, view_state)
        return
    keys = args.keys()
    if not all(map(isinstance, keys, repeat(str))) or not keys <= allowed:
        extra = sorted(str(k) for k in keys - allowed)
        raise ActionError(f"unexpected argument(s): {', '.join(extra)}")
    if not required <= keys:
        raise ActionError(f"missing argument(s): {', '.join(sorted(required - keys))}")
    for key, value in args.items():
        hint, kind = hints[key], type(value)
        # the common cases, decided as check_type and check_value would decide them
        if kind is str and hint is not int and hint is not bool:
            continue
        if (
            kind is int
            and hint is not str
            and hint is not bool
            and -MAX_NUMBER <= value <= MAX_NUMBER
        ):
            continue
        if kind is float and hint is float and -MAX_NUMBER <= value <= MAX_NUMBER:
            continue  # (NaN and infinity fail the comparison)
        check_type(key, hint, value)
        check_value(key, value)


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
