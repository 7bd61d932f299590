"""The rows a shared test reads of each world, from the world's own tests folder
(`tests/<world>/rows.py`, its `ROWS`): a task id, valid-looking tool arguments, the `-T`
examples its task's docstring describes. A world added to the roster brings its own; no
shared test keeps a table by world."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Rows:
    task: str  # a public task id, as a submission names it
    # valid-looking values for tool arguments that name things in the world (the rest come
    # from their types), and those read off a task's initial state
    known_args: Mapping[str, Any] = field(default_factory=dict)
    known_from_state: Callable[[Any], Mapping[str, Any]] | None = None
    params: tuple[str, ...] = ()  # -T key=value examples, as its task's docstring gives them
    # documented values that need a step first (its docs say which)
    needs_a_step: tuple[str, ...] = ()


def rows(world: str) -> Rows:
    """The rows of `world` (tests/<world>/rows.py), refused in one line when absent."""
    try:
        got = importlib.import_module(f"tests.{world}.rows").ROWS
    except (ModuleNotFoundError, AttributeError):
        raise LookupError(f"tests/{world}/rows.py defines no ROWS: add the world's rows") from None
    if not isinstance(got, Rows):
        raise TypeError(f"tests/{world}/rows.py: ROWS is not a Rows")
    return got
