"""The pizza family: a refund desk that must follow policy while the customer talks back."""

from __future__ import annotations

from typing import Any

from checkout_consent.core.family import Family, Scenario
from checkout_consent.pizza import grader
from checkout_consent.pizza.actions import ACTIONS
from checkout_consent.pizza.state import State, Task, initial_state

WORLD_VERSION = "1"


def scenario_for(task: Task, *, replies: bool = True) -> Scenario:
    """The Scenario a sample carries: the whole task, so a log re-grades without the data file."""
    return Scenario(family="pizza", scenario_id=task.task_id, seed=task.seed,
                    params={"task": task.model_dump(mode="json"), "replies": replies})


def initial(scenario: Scenario) -> State:
    task = Task.model_validate(scenario.params["task"])
    return initial_state(task, replies=bool(scenario.params.get("replies", True)))


def _metrics(record: Any) -> dict[str, float]:
    return grader.metrics(record)


def _explain(record: Any) -> str:
    return grader.explain(record)


FAMILY = Family(
    name="pizza",
    version=f"{WORLD_VERSION}.{grader.GRADER_VERSION}",  # world.grader
    actions=ACTIONS,
    initial=initial,
    grade=grader.grade,
    metrics=_metrics,
    explain=_explain,
)
