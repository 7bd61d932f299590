"""Where the provider and the page meet: the turn waiting for the person, and their answer.
The provider and the page's server run in different threads, so the desk is guarded by a
lock and an answer travels back as a Future. A turn carries a random token the page sends
back: an answer to a turn no longer open (a stale tab, a replayed form) is refused."""

from __future__ import annotations

import secrets
import threading
import time
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from checkout_consent.runtime.human.fields import Form

MAX_CALLS = 64  # tool calls one turn may hold
GONE = "that turn is no longer open: the page now shows the current one"


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
    # the last refusal, shown once: (the line, the argument it is about or "", values typed)
    refusal: tuple[str, str, dict[str, str]] | None = None

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
        self.notice = ""  # what became of the last turn, when the person did not send it
        # the run's end as it comes in: (a line, a path to show whole) (`end`)
        self.ended: list[tuple[str, str]] = []
        self._changed = self._shown = 0  # state changes made, and shown on a page so far
        self._asked = 0.0  # when the page was last requested (monotonic)

    def seen(self, shown: bool = True) -> None:
        """A request came in; `shown`: it rendered the page as it now stands."""
        with self._lock:
            self._asked = time.monotonic()
            if shown:
                self._shown = self._changed

    def unseen(self) -> bool:
        """Whether a browser watching the page (in the last 30 s) has not seen its latest state."""
        with self._lock:
            watching = time.monotonic() - self._asked < 30
            return watching and self._shown < self._changed

    def end(self, line: str, path: str = "") -> None:
        """Add a line of the run's end (a sample's score; a task's end and its log's path)."""
        with self._lock:
            self.ended.append((line, path))
            self._changed += 1

    def open(self, turn: Turn) -> Future[Answer]:
        with self._lock:
            if self.turn is not None:
                raise RuntimeError("a turn is already open: the human provider plays one at a time")
            self.turn = turn
        return turn.future

    def _open(self, token: str) -> Turn | None:
        """The open turn if `token` is its token (call with the lock held)."""
        turn = self.turn
        ok = turn is not None and secrets.compare_digest(turn.token.encode(), token.encode())
        return turn if ok else None

    def answer(self, token: str, answer: Answer) -> str | None:
        """Close the open turn with `answer`; the one line why not, if it cannot."""
        with self._lock:
            turn = self._open(token)
            if turn is None:
                return GONE
            done = self._finish(turn, answer)
        turn.future.set_result(done)  # outside the lock: its callbacks may open a turn
        return None

    def _finish(self, turn: Turn, answer: Answer) -> Answer:
        """Close `turn` (the lock held); its answer: its queued calls, then `answer`'s."""
        self.turn = None
        seconds = round(time.monotonic() - turn.opened, 3)
        done = Answer(answer.text, (*turn.queued, *answer.calls), seconds)
        self.done.append(Done(turn.sample, turn.epoch, turn.number, describe(done)))
        self.notice = ""
        self._changed += 1
        return done

    def expire(self, turn: Turn, seconds: float) -> None:
        """`turn` ran out of time: send the calls it holds with no reply text, and say so."""
        with self._lock:
            if self.turn is not turn or turn.future.done():
                return
            sent = len(turn.queued)
            done = self._finish(turn, Answer())
            self.notice = f"Turn {turn.number} ran out of time after {seconds:g} s: " + (
                f"the {sent} call(s) added to it were sent, in order, with no reply text."
                if sent
                else "it was sent as an empty reply (no call had been added to it)."
            )
        turn.future.set_result(done)

    def queue(self, token: str, call: tuple[str, dict[str, Any]]) -> str | None:
        """Add a call to the open turn, sent with the turn's next answer; why not, if not."""
        with self._lock:
            turn = self._open(token)
            if turn is None:
                return GONE
            if len(turn.queued) >= MAX_CALLS - 1:
                return f"a turn holds at most {MAX_CALLS} calls"
            turn.queued.append(call)
        return None

    def unqueue(self, token: str, index: str) -> str | None:
        """Remove the queued call at `index` (from 0) of the open turn; why not, if not."""
        with self._lock:
            turn = self._open(token)
            if turn is None:
                return GONE
            if not index.isdigit() or int(index) >= len(turn.queued):
                return "that call is not in this turn (the page now shows the calls it holds)"
            del turn.queued[int(index)]
        return None

    def refuse(self, token: str, line: str, about: str, values: dict[str, str]) -> None:
        """Keep a refusal (none if `line` is empty) for the page the refused form shows."""
        if not line:
            return
        with self._lock:
            if self.turn is not None:
                self.turn.refusal = (line, about, values)
            else:
                self.notice = line

    def take_refusal(self) -> tuple[str, str, dict[str, str]] | None:
        """The refusal to show (once), if any."""
        with self._lock:
            turn = self.turn
            if turn is None or turn.refusal is None:
                return None
            refusal, turn.refusal = turn.refusal, None
            return refusal

    def close(self, turn: Turn) -> None:
        """Forget `turn` (its sample ended, timed out or was stopped)."""
        with self._lock:
            if self.turn is turn:
                self.turn = None

    def stop(self, token: str) -> str | None:
        """Stop the run from the open turn's page (its token); why not, if not."""
        with self._lock:
            turn = self._open(token)
            if turn is None:
                return "stop the run from an open turn's page (that turn is no longer open)"
            self.stopped = True
            self.turn = None
            self._changed += 1
        if not turn.future.done():
            turn.future.cancel()
        return None

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
