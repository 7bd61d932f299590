"""The pizza Inspect task: one complaint per sample, an agent loop over the desk tools,
scored by replaying the tool log through the pure world."""

from __future__ import annotations

from inspect_ai import Task, task
from inspect_ai.scorer import Scorer, mean, scorer

from checkout_consent.pizza import MAX_TURNS, SPEC, dataset
from checkout_consent.pizza.tools import tools
from checkout_consent.runtime.scorer import replay_score
from checkout_consent.runtime.tasks import family_task, task_arguments, turns_arg


@scorer(metrics=[{"*": [mean()]}])
def pizza_scorer() -> Scorer:
    """Replay the tool log through the world and grade it (works on finished logs too)."""
    return replay_score(SPEC)


@task
def pizza(split: str = "public", replies: bool | str = True, tasks: str | None = None,
          seeds: str | None = None, max_turns: int | str = MAX_TURNS) -> Task:
    """The refund desk. `split`: "public" or a hidden seed; `seeds`: several splits;
    `replies=false` silences the customer (the seed's one-shot setting); `tasks`: ids or
    template names, comma-separated."""
    with task_arguments(SPEC.name):
        scenarios = dataset.scenarios(split, seeds, tasks, replies)
        budget = turns_arg("max_turns", max_turns)
    return family_task(SPEC, scenarios, scorer=pizza_scorer(), tools=tools, turns=budget)
