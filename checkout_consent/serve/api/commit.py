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
    """Group commit: one thread inserts whatever rows are waiting in one transaction (one
    disk sync for the batch); each `add` returns only once its own row is committed. When
    the batch's transaction fails, its rows are retried one per transaction, so one bad row
    fails alone and its neighbours are stored."""

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
            except Exception:  # the batch rolled back: none of it is stored, so each row
                self._one_by_one(batch)  # is tried alone and fails only for its own fault
            for item in batch:
                item.done.set()

    def _one_by_one(self, batch: list[_Pending]) -> None:
        """Insert each row of a failed batch in its own transaction; a row that fails
        carries its own error, never a neighbour's."""
        for item in batch:
            try:
                self.insert([item.values])
            except Exception as error:
                item.error = error
