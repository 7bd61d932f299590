"""Shopkit state: the build as a file tree (path -> text) plus the runs the agent made."""

from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class RunResult:
    """One execution the agent asked for, as it happened live."""

    command: str  # e.g. "python -m shopkit.cli total O1" or "python <snippet>"
    exit_code: int | None  # None when it was stopped at the timeout
    output: str  # stdout and stderr, interleaved, capped


@dataclass(frozen=True)
class State:
    """The build as it stands: every file's text by relative path, sorted."""

    task: str
    brief: str
    files: tuple[tuple[str, str], ...]
    runs: tuple[RunResult, ...] = ()
    edits: int = 0
    finished: bool = False

    def tree(self) -> dict[str, str]:
        return dict(self.files)

    def with_file(self, path: str, text: str) -> State:
        merged = {**self.tree(), path: text}
        return replace(self, files=tuple(sorted(merged.items())), edits=self.edits + 1)
