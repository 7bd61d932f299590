"""Helpers for the pizza tests: tasks by template, and running a list of calls."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from checkout_consent.core.trace import Call
from checkout_consent.core.world import apply
from checkout_consent.pizza.actions import ACTIONS
from checkout_consent.pizza.data import public_tasks
from checkout_consent.pizza.grader import PizzaRecord
from checkout_consent.pizza.simulate import grade_calls
from checkout_consent.pizza.state import State, Task, initial_state

Steps = Sequence[tuple[str, dict[str, Any]]]


def task_of(template: str, n: int = 1) -> Task:
    return [t for t in public_tasks() if t.template == template][n - 1]


def calls_for(task: Task, steps: Steps, *, replies: bool = True) -> list[Call]:
    """Apply `steps` live and record them as a trace."""
    state: State = initial_state(task, replies=replies)
    out: list[Call] = []
    for tool, args in steps:
        step = apply(ACTIONS, state, tool, args)
        state = step.state
        out.append(Call(tool=tool, args=args, ok=step.ok, observation=step.observation))
    return out


def graded(task: Task, steps: Steps, *, replies: bool = True) -> PizzaRecord:
    return grade_calls(task, calls_for(task, steps, replies=replies), replies=replies)
