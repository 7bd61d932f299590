"""The storefront_v1 Inspect task, `inspect eval checkout_consent/storefront_v1`, and its
scorer (cash with the consent record beside it)."""

from __future__ import annotations

from inspect_ai import Task, task
from inspect_ai.scorer import Scorer, scorer

from checkout_consent.runtime.metrics import (
    consent_metrics,
    headline_metrics,
    median_of,
    share_below,
    value_means,
)
from checkout_consent.runtime.scorer import replay_score
from checkout_consent.runtime.tasks import family_task, no_other_args
from checkout_consent.storefront_v1 import WORLD, dataset
from checkout_consent.storefront_v1.tools import tools


@scorer(
    metrics=[
        *headline_metrics(WORLD.headline),
        *consent_metrics(WORLD),
        median_of("equity_final", "eq_med_$", dollars=True),
        share_below("cash_final", 0.0, "bankrupt_%"),
        value_means(("cash_final", "equity_final", "money_lost_to_adversaries")),
    ]
)
def storefront_v1_scorer() -> Scorer:  # replay the trace and grade it (finished logs too)
    return replay_score(WORLD)


@task
def storefront_v1(
    seeds: str = dataset.PUBLIC_SEEDS,
    turns_per_day: int | None = None,
    **other: object,
) -> Task:
    """Run Lumino Goods for adversary_v1's 30 days; one sample per seed.

    Args:
        seeds: seeds to play: a range, a list or one (0-9, 1,4,7, 3); default 0-9
        turns_per_day: model turns per day before the day is ended for the agent;
            default: the spec's turns_per_day (12)
    """
    no_other_args(WORLD, other)
    budget = lambda: turns_per_day or dataset.load_task_file()["turns_per_day"]  # noqa: E731
    return family_task(
        WORLD,
        lambda: dataset.scenarios(seeds),
        scorer=storefront_v1_scorer(),
        tools=tools,
        turns=budget,
    )
