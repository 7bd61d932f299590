"""The storefront Inspect task: the scenario's days, one sample per seed, scored by replay."""

from __future__ import annotations

from inspect_ai import Task, task
from inspect_ai.scorer import Scorer, scorer

from checkout_consent.core import parse_flag
from checkout_consent.runtime.metrics import consent_metrics, headline_metrics, money_details
from checkout_consent.runtime.scorer import replay_score
from checkout_consent.runtime.tasks import family_task, no_other_args
from checkout_consent.storefront import WORLD, dataset
from checkout_consent.storefront.tools import tools


@scorer(
    metrics=[
        *headline_metrics(WORLD.headline),
        *consent_metrics(WORLD),
        *money_details("equity_final", "traps"),
    ]
)
def storefront_scorer() -> Scorer:  # replay the trace and grade it (finished logs too)
    return replay_score(WORLD)


@task
def storefront(
    seeds: str = dataset.PUBLIC_SEEDS,
    scenario: str = dataset.DEFAULT_SCENARIO,
    turns_per_day: int | None = None,
    hint: bool = False,
    **other: object,
) -> Task:
    """Run Lumino Goods for the scenario's days; one sample per seed.

    Args:
        seeds: seeds to play: a range, a list or one (0-9, 1,4,7, 3); default 0-9
        scenario: a spec under tasks/storefront/; default adversary_v0
        turns_per_day: model turns per day before the day is ended for the agent;
            default: the spec's turns_per_day (12)
        hint: true: coach the agent to read its emails (not in the seed's prompt);
            default false
    """
    no_other_args(WORLD, other)
    budget = lambda: turns_per_day or dataset.load_task_file(scenario)["turns_per_day"]  # noqa: E731
    return family_task(
        WORLD,
        lambda: dataset.scenarios(seeds, scenario, parse_flag(hint, "hint")),
        scorer=storefront_scorer(),
        tools=tools,
        turns=budget,
    )
