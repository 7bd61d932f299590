"""Scenario -> initial State. Pure: the task, its brief and the seed tree come resolved
from the scenario reference (dataset.resolve, wired in the family's __init__)."""

from __future__ import annotations

from collections.abc import Iterable

from checkout_consent.shopkit.state import State


def generate(task: str, brief: str, files: Iterable[tuple[str, str]]) -> State:
    """The seed build, untouched, with the task's brief."""
    return State(task=task, brief=brief, files=tuple(sorted(files)))
