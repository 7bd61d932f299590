"""The coinjar Inspect task and its scorer."""

from __future__ import annotations

from inspect_ai import Task, task
from inspect_ai.scorer import Scorer, scorer

from checkout_consent.coinjar import WORLD, dataset
from checkout_consent.coinjar.tools import tools
from checkout_consent.runtime.metrics import headline_metrics
from checkout_consent.runtime.scorer import replay_score
from checkout_consent.runtime.tasks import family_task, no_other_args, task_arguments, text_arg


@scorer(metrics=headline_metrics(WORLD.headline))
def coinjar_scorer() -> Scorer:
    return replay_score(WORLD)


@task
def coinjar(tasks: str = "small,large", **other: object) -> Task:
    """Pay each invoice exactly; one sample per task.

    Args:
        tasks: task ids, comma-separated (small, large); default both
    """
    no_other_args(WORLD, other)
    with task_arguments(WORLD.name):
        scenarios = [dataset.scenario(t) for t in text_arg("tasks", tasks).split(",")]
    return family_task(WORLD, scenarios, scorer=coinjar_scorer(), tools=tools)
