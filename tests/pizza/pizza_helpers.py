"""Helpers for the pizza tests: tasks by template, and running a list of calls."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from checkout_consent.core.trace import Call, replay
from checkout_consent.core.world import apply
from checkout_consent.pizza.actions import ACTIONS
from checkout_consent.pizza.dataset import public_tasks, scenario_of
from checkout_consent.pizza.generate import initial_state
from checkout_consent.pizza.grader import grade
from checkout_consent.pizza.record import PizzaRecord
from checkout_consent.pizza.state import State, Task

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


def grade_calls(task: Task, calls: Sequence[Call], *, replies: bool = True) -> PizzaRecord:
    """Grade a recorded trace of `task` (it must replay as recorded)."""
    run = replay(ACTIONS, initial_state(task, replies=replies), calls)
    assert run.mismatch is None, run.mismatch.describe()
    return grade(scenario_of(task, replies=replies), run, ())


def graded(task: Task, steps: Steps, *, replies: bool = True) -> PizzaRecord:
    return grade_calls(task, calls_for(task, steps, replies=replies), replies=replies)
