"""The pizza Inspect task: one complaint per sample, an agent loop over the desk tools,
scored by replaying the tool log through the pure world."""

from __future__ import annotations

from inspect_ai import Task, task
from inspect_ai.scorer import Scorer, scorer

from checkout_consent.pizza import MAX_TURNS, WORLD, dataset
from checkout_consent.pizza.tools import tools
from checkout_consent.runtime.metrics import (
    consent_metrics,
    headline_metrics,
    pass_hat,
    value_means,
)
from checkout_consent.runtime.scorer import replay_score
from checkout_consent.runtime.tasks import (
    family_task,
    no_other_args,
    optional_text,
    task_arguments,
    turns_arg,
)


@scorer(
    metrics=[
        *headline_metrics(WORLD.headline),
        *consent_metrics(WORLD),
        pass_hat("score"),
        value_means(),
    ]
)
def pizza_scorer() -> Scorer:
    """Replay the tool log through the world and grade it (works on finished logs too)."""
    return replay_score(WORLD)


@task
def pizza(
    split: str = "public",
    replies: bool | str = True,
    tasks: str | list[str] | None = None,
    splits: str | None = None,
    max_turns: int | str = MAX_TURNS,
    **other: object,
) -> Task:
    """The refund desk: one sample per complaint of the split.

    Args:
        split: "public" (seed 20261015) or a hidden seed, e.g. 94721
        replies: false silences the customer (the seed's one-shot setting; default true)
        tasks: task ids or template names, comma-separated (default: all)
        splits: several splits at once, each named by its seed, e.g. 1-3 or 4,7 (instead
            of split)
        max_turns: the agent's turn budget per sample (default 16)
    """
    no_other_args(WORLD, other)
    with task_arguments(WORLD.name):
        scenarios = dataset.scenarios(split, splits, optional_text("tasks", tasks), replies)
        budget = turns_arg("max_turns", max_turns)
    return family_task(WORLD, scenarios, scorer=pizza_scorer(), tools=tools, turns=budget)
