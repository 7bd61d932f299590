"""Where the provider and the page meet: the turn waiting for the person, and their answer.

The provider runs in Inspect's event loop and the page's server in a thread of its own, so
the desk is guarded by a lock and an answer travels back as a `concurrent.futures.Future`.
A turn carries a random token the page sends back with its answer: an answer to a turn
that is no longer open (a stale tab, a second tab, a replayed form) is refused."""

from __future__ import annotations

import secrets
import threading
import time
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from checkout_consent.runtime.human.fields import Form

MAX_CALLS = 64  # tool calls one turn may hold


@dataclass(frozen=True)
class Shown:
    """One message of the conversation as the page shows it."""

    role: str
    text: str
    calls: tuple[tuple[str, str], ...] = ()  # (tool, arguments as JSON)
    error: bool = False


@dataclass(frozen=True)
class Answer:
    """The person's turn: some text and/or tool calls (as a model's turn may hold several)."""

    text: str = ""
    calls: tuple[tuple[str, dict[str, Any]], ...] = ()
    seconds: float = 0.0  # how long the turn was open


@dataclass
class Turn:
    """A generate() call waiting for the person."""

    sample: str
    epoch: int
    number: int  # the model turn of this sample, from 1
    conversation: tuple[Shown, ...]
    forms: tuple[Form, ...]
    budget_s: float | None
    token: str = field(default_factory=lambda: secrets.token_urlsafe(16))
    opened: float = field(default_factory=time.monotonic)
    future: Future[Answer] = field(default_factory=Future)
    queued: list[tuple[str, dict[str, Any]]] = field(default_factory=list)  # calls added

    def left_s(self) -> float | None:
        """Seconds left in the turn's time budget (None: no budget)."""
        if self.budget_s is None:
            return None
        return max(0.0, self.budget_s - (time.monotonic() - self.opened))


@dataclass(frozen=True)
class Done:
    """A finished turn, for the page's account of where the run stands."""

    sample: str
    epoch: int
    number: int
    summary: str


class Desk:
    """The open turn (at most one: one sample at a time), the turns done, and the stop."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.turn: Turn | None = None
        self.done: list[Done] = []
        self.stopped = False
        self.seat: Any = None  # the Inspect sample being played (the provider's to keep)

    def open(self, turn: Turn) -> Future[Answer]:
        with self._lock:
            if self.turn is not None:
                raise RuntimeError("a turn is already open: the human provider plays one at a time")
            self.turn = turn
        return turn.future

    def answer(self, token: str, answer: Answer) -> str | None:
        """Close the open turn with `answer`; the one line why not, if it cannot."""
        with self._lock:
            turn = self.turn
            if turn is None or not secrets.compare_digest(turn.token, token):
                return "that turn is no longer open: the page now shows the current one"
            self.turn = None
            seconds = round(time.monotonic() - turn.opened, 3)
            done = Answer(answer.text, (*turn.queued, *answer.calls), seconds)
            self.done.append(Done(turn.sample, turn.epoch, turn.number, describe(done)))
        turn.future.set_result(done)
        return None

    def queue(self, token: str, call: tuple[str, dict[str, Any]]) -> str | None:
        """Add a call to the open turn, sent with the turn's next answer; why not, if not."""
        with self._lock:
            turn = self.turn
            if turn is None or not secrets.compare_digest(turn.token, token):
                return "that turn is no longer open: the page now shows the current one"
            if len(turn.queued) >= MAX_CALLS - 1:
                return f"a turn holds at most {MAX_CALLS} calls"
            turn.queued.append(call)
        return None

    def close(self, turn: Turn) -> None:
        """Forget `turn` (its sample ended, timed out or was stopped)."""
        with self._lock:
            if self.turn is turn:
                self.turn = None

    def stop(self) -> None:
        with self._lock:
            self.stopped = True
            turn, self.turn = self.turn, None
        if turn is not None and not turn.future.done():
            turn.future.cancel()

    def replayed(self, sample: str, epoch: int, number: int, answer: Answer) -> None:
        with self._lock:
            self.done.append(Done(sample, epoch, number, "(from the journal) " + describe(answer)))


def describe_call(tool: str, args: dict[str, Any]) -> str:
    return f"{tool}({', '.join(f'{k}={v!r}' for k, v in args.items())})"[:160]


def describe(answer: Answer) -> str:
    said = f"replied: {answer.text[:80]}" if answer.text else ""
    if not answer.calls:
        return said or "replied with nothing"
    calls = "; ".join(describe_call(*c) for c in answer.calls)
    return (f"{said}; " if said else "") + f"called {calls}"[:300]
