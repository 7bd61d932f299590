"""The storefront Inspect task: the scenario's days, one sample per seed, scored by replay.
`-T scenario=adversary_v1` is an alias of the `storefront_v1` task (v1/task.py)."""

from __future__ import annotations

from inspect_ai import Task, task
from inspect_ai.scorer import Scorer, scorer

from checkout_consent.core.spec import parse_flag
from checkout_consent.runtime.metrics import consent_metrics, headline_metrics, money_details
from checkout_consent.runtime.scorer import replay_score
from checkout_consent.runtime.tasks import family_task, no_other_args, task_arguments
from checkout_consent.storefront import SPEC, dataset
from checkout_consent.storefront.tools import tools
from checkout_consent.storefront.v1 import SPEC_V1
from checkout_consent.storefront.v1.task import v1_task


@scorer(
    metrics=[
        *headline_metrics(SPEC.headline),
        *consent_metrics(SPEC),
        *money_details("equity_final", "traps"),
    ]
)
def storefront_scorer() -> Scorer:  # replay the trace and grade it (finished logs too)
    return replay_score(SPEC)


@task
def storefront(
    seeds: str = dataset.PUBLIC_SEEDS,
    scenario: str = dataset.DEFAULT_SCENARIO,
    turns_per_day: int | None = None,
    hint: bool = False,
    **other: object,
) -> Task:
    """Run Lumino Goods for the scenario's days; one sample per seed."""
    no_other_args(SPEC, other)
    if scenario == SPEC_V1.variant:  # the alias of `storefront_v1`
        with task_arguments(SPEC.name):
            if parse_flag(hint, "hint"):
                raise ValueError("hint coaches adversary_v0's briefing; adversary_v1 has none")
        return v1_task(seeds, turns_per_day)
    budget = lambda: turns_per_day or dataset.load_spec(scenario)["turns_per_day"]  # noqa: E731
    return family_task(
        SPEC,
        lambda: dataset.scenarios(seeds, scenario, parse_flag(hint, "hint")),
        scorer=storefront_scorer(),
        tools=tools,
        turns=budget,
    )
