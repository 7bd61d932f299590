"""How a run is paced, one implementation for every driver (Inspect's solver, the offline
driver, a saved trace's replay), so all open, trim, nudge and close phases at the same
points: `pace` yields a command and is sent back what happened (a `Turned`). Pure."""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

from checkout_consent.core.contract import Episode


class Traced(Protocol):
    """What pacing reads of a traced call (`core.trace.Call` is one)."""

    @property
    def tool(self) -> str: ...
    @property
    def ok(self) -> bool: ...
    @property
    def observation(self) -> str: ...


class TracedCall(NamedTuple):
    """A traced call as a driver that keeps its trace as JSON data reports it."""

    tool: str
    args: Mapping[str, Any]
    ok: bool
    observation: str


class Turned(NamedTuple):
    """What a `Turn` or a `Solve` did."""

    calls: tuple[Traced, ...] = ()  # the calls the trace gained
    asked: bool = False  # the model's reply asked for tool calls
    overflow: bool = False  # the model's context overflowed: the agent's part is over


@dataclass(frozen=True)
class Say:
    """Append a user message; `restart`: the agent's view restarts at it (a trim)."""

    text: str
    restart: bool = False


@dataclass(frozen=True)
class Turn:
    """One model turn in `phase`."""

    phase: int


@dataclass(frozen=True)
class Solve:
    """A call the solver makes for the agent: `tool`, without arguments."""

    tool: str


Command = Say | Turn | Solve
Pacer = Generator[Command, Turned | None, None]
_Step = Generator[Command, Turned | None, Any]


def _shown(event: Turned | None) -> int:
    """Characters the world showed the agent in these calls: their observations, never what
    the model wrote (docs/design.md, "Context trimming")."""
    return 0 if event is None else sum(len(c.observation) for c in event.calls)


def _open(episode: Episode, state: Callable[[], Any], shown: int) -> _Step:
    """Open a phase (trimming first when over budget); returns the characters since a trim."""
    if episode.over_budget(shown):
        recap = episode.recap(state())
        yield Say(recap, restart=True)
        yield Solve(str(episode.trim_tool))
        shown = len(recap)
    message = episode.phase_message(state())
    if message is not None:
        yield Say(message)
        shown += len(message)
    return shown


def _turns(episode: Episode, phase: int, shown: int) -> _Step:
    """The agent's turns in a phase; returns (characters since a trim, overflowed)."""
    for _ in range(episode.turns):
        turned = yield Turn(phase)
        if turned is None:
            raise TypeError("a driver must answer a Turn with a Turned")
        if turned.overflow:
            return shown, True
        shown += _shown(turned)
        if any(c.ok and c.tool in episode.stop_tools for c in turned.calls):
            break
        if not turned.asked:
            if episode.nudge is None:
                break
            yield Say(episode.nudge)
    return shown, False


def pace(episode: Episode, state: Callable[[], Any], *, silent: bool = False) -> Pacer:
    """The episode, phase by phase (`silent`: a saved trace that stopped, only closed)."""
    shown = 0
    while (phase := episode.phase(state())) is not None:
        if not silent:
            shown = yield from _open(episode, state, shown)
            shown, silent = yield from _turns(episode, phase, shown)
        if episode.phase(state()) != phase:
            continue
        if episode.close_tool is None:
            return
        shown += _shown((yield Solve(episode.close_tool)))


def next_command(pacer: Pacer, event: Turned | None) -> Command | None:
    """The pacer's next command after `event` (None: the run is over)."""
    try:
        return pacer.send(event)
    except StopIteration:
        return None


def drive(pacer: Pacer, do: Callable[[Command], Turned | None]) -> None:
    """Run a pacer to its end with a synchronous driver (`do` performs one command)."""
    event: Turned | None = None
    while (command := next_command(pacer, event)) is not None:
        event = do(command)
