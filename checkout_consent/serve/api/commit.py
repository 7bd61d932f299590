"""Group commit for stored submissions: many writers, one disk sync per batch."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import Any

Rows = list[tuple[Any, ...]]


class _Pending:
    def __init__(self, values: tuple[Any, ...]) -> None:
        self.values, self.done = values, threading.Event()
        self.error: BaseException | None = None


class GroupCommit:
    """One thread inserts whatever rows are waiting in one transaction; each `write` returns
    once its own row is committed, and a failed batch is retried a row at a time."""

    def __init__(self, insert: Callable[[Rows], None]) -> None:
        self.insert, self.pending = insert, queue.SimpleQueue[_Pending]()
        threading.Thread(target=self._run, name="submissions-writer", daemon=True).start()

    def write(self, values: tuple[Any, ...]) -> None:
        item = _Pending(values)
        self.pending.put(item)
        item.done.wait()
        if item.error is not None:
            raise item.error

    def _run(self) -> None:
        while True:
            batch = [self.pending.get()]
            while len(batch) < 512 and not self.pending.empty():
                batch.append(self.pending.get())
            try:
                self.insert([item.values for item in batch])
            except Exception:  # the batch rolled back: each row is tried alone, so a row
                for item in batch:  # fails with its own error, never a neighbour's
                    try:
                        self.insert([item.values])
                    except Exception as error:
                        item.error = error
            for item in batch:
                item.done.set()
