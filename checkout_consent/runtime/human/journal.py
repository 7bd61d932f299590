"""The journal of answered turns, each flushed as answered and keyed by what was shown."""

from __future__ import annotations

import hashlib
import io
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from checkout_consent.runtime import untrusted
from checkout_consent.runtime.human.desk import Answer, Shown
from checkout_consent.runtime.human.fields import Form

MAX_LINE = 256 * 1024
MAX_BYTES = 64 * 1024 * 1024


class JournalError(ValueError):
    """The journal cannot be read; the message is one line."""


def turn_key(
    sample: str, epoch: int, number: int, shown: Sequence[Shown], forms: Sequence[Form]
) -> str:
    seen = [[m.role, m.text, [list(c) for c in m.calls], m.error] for m in shown]
    tools = [[f.tool, f.description, [list(vars(x).values()) for x in f.fields]] for f in forms]
    body = json.dumps([sample, epoch, number, seen, tools], sort_keys=True, default=str)
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


def _answer(raw: Any, where: str) -> tuple[str, Answer]:
    if not isinstance(raw, dict) or not isinstance(raw.get("key"), str):
        raise JournalError(f"{where}: not a journal entry")
    text, calls, seconds = raw.get("text", ""), raw.get("calls", []), raw.get("seconds", 0.0)
    if not isinstance(text, str) or not isinstance(seconds, int | float) or seconds < 0:
        raise JournalError(f"{where}: malformed text or seconds")
    if not isinstance(calls, list) or not all(
        isinstance(c, list) and len(c) == 2 and isinstance(c[0], str) for c in calls
    ):
        raise JournalError(f"{where}: malformed calls")
    return raw["key"], Answer(text, tuple((c[0], c[1]) for c in calls), float(seconds))


class Journal:
    """The answered turns of one journal file, by turn key."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.answers: dict[str, Answer] = {}
        if path.exists():
            self._load()

    def _load(self) -> None:
        try:
            data = untrusted.read_bytes(self.path, MAX_BYTES)
        except untrusted.Refused as err:
            raise JournalError(f"journal {err}") from None
        for n, line in enumerate(io.BytesIO(data), 1):
            where = f"journal {self.path} line {n}"
            if len(line) > MAX_LINE:
                raise JournalError(f"{where}: longer than {MAX_LINE // 1024} KB")
            try:
                raw = json.loads(line)
            except (ValueError, UnicodeDecodeError):
                raise JournalError(f"{where}: not JSON") from None
            key, answer = _answer(raw, where)
            self.answers[key] = answer

    def write(self, key: str, answer: Answer) -> None:
        """Append one answered turn and flush it to disk before the turn goes on."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        calls = [list(c) for c in answer.calls]
        entry = {"key": key, "text": answer.text, "calls": calls, "seconds": answer.seconds}
        with self.path.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(entry, sort_keys=True) + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        self.answers[key] = answer

    def seconds(self) -> float:
        """The time the person spent on the turns this journal holds."""
        return round(sum(a.seconds for a in self.answers.values()), 3)


def play_seconds(sample: Any) -> float:
    """The seconds a person played a logged sample: each model turn's `human_seconds`."""
    total = 0.0
    for event in getattr(sample, "events", None) or []:
        if getattr(event, "event", "") != "model" or event.output is None:
            continue
        seconds = (event.output.metadata or {}).get("human_seconds")
        if isinstance(seconds, int | float) and not isinstance(seconds, bool) and seconds >= 0:
            total += float(seconds)
    return round(total, 3)
