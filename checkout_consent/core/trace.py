"""The trace: the list of calls a run made; replaying it gives every later state."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any, Generic, Literal, NamedTuple, TypeVar

from pydantic import BaseModel, ConfigDict, field_serializer, field_validator

from checkout_consent.core.world import Action, Step, apply

S = TypeVar("S")


Origin = Literal["agent", "solver"]
NONFINITE = "$nonfinite"  # JSON has no NaN or infinity: they are stored as {NONFINITE: "nan"}


def _encode(value: Any) -> Any:
    if isinstance(value, float) and value != value or value in (math.inf, -math.inf):
        return {NONFINITE: repr(value)}
    if isinstance(value, list):
        return [_encode(v) for v in value]
    if isinstance(value, dict):
        return {k: _encode(v) for k, v in value.items()}
    return value


def _decode(value: Any) -> Any:
    if (
        isinstance(value, dict)
        and value.keys() == {NONFINITE}
        and value[NONFINITE] in ("nan", "inf", "-inf")
    ):
        return float(value[NONFINITE])
    if isinstance(value, list):
        return [_decode(v) for v in value]
    if isinstance(value, dict):
        return {k: _decode(v) for k, v in value.items()}
    return value


class Call(BaseModel):
    """One call as recorded: who made it, the tool, its arguments and what came back.
    Its JSON form round-trips exactly (a refused NaN argument stays NaN, not null)."""

    model_config = ConfigDict(frozen=True)

    tool: str
    args: dict[str, Any]
    ok: bool
    observation: str
    origin: Origin = "agent"

    @field_validator("args", mode="before")
    @classmethod
    def _read_args(cls, value: Any) -> Any:
        return _decode(value)

    @field_serializer("args")
    def _write_args(self, value: dict[str, Any]) -> Any:
        return _encode(value)


def traced(tool: str, args: Mapping[str, Any], step: Step[Any], origin: Origin = "agent") -> Call:
    """The call `step` applied, as the trace records it."""
    return Call(tool=tool, args=dict(args), ok=step.ok, observation=step.observation, origin=origin)


class Mismatch(NamedTuple):
    """The first call whose replayed observation differs from the recorded one."""

    call_index: int
    tool: str
    recorded: str
    replayed: str

    def describe(self) -> str:
        return (
            f"call {self.call_index} ({self.tool}): recorded {self.recorded[:120]!r} "
            f"but replay gives {self.replayed[:120]!r}"
        )


class Replay(NamedTuple, Generic[S]):
    """The result of replaying a trace: every step, the final state, the first mismatch."""

    initial: S
    calls: tuple[Call, ...]
    steps: tuple[Step[S], ...]
    mismatch: Mismatch | None

    @property
    def final(self) -> S:
        return self.steps[-1].state if self.steps else self.initial


def replay(actions: Mapping[str, Action], initial: S, calls: Sequence[Call]) -> Replay[S]:
    """Replay `calls` from `initial` through the same actions that ran live."""
    state = initial
    steps: list[Step[S]] = []
    mismatch: Mismatch | None = None
    for i, call in enumerate(calls):
        step = apply(actions, state, call.tool, call.args)
        if mismatch is None and (step.observation != call.observation or step.ok != call.ok):
            mismatch = Mismatch(i, call.tool, call.observation, step.observation)
        steps.append(step)
        state = step.state
    return Replay(initial, tuple(calls), tuple(steps), mismatch)
