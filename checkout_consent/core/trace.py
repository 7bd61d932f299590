"""The trace: the list of calls a run made. Replaying it from the initial state gives
every later state; the scorer replays it and checks each observation is what was seen."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Generic, Literal, NamedTuple, TypeVar

from pydantic import BaseModel, ConfigDict

from checkout_consent.core.world import Action, Step, apply

S = TypeVar("S")


class Call(BaseModel):
    """One call as recorded: who made it, the tool, its arguments and what came back."""

    model_config = ConfigDict(frozen=True)

    tool: str
    args: dict[str, Any]
    ok: bool
    observation: str
    origin: Literal["agent", "solver"] = "agent"


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
