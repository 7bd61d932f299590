"""The adversary_v1 Inspect task, `inspect eval checkout_consent/storefront_v1`, and its
scorer (cash with the consent record beside it). The storefront task plays the same
task for `-T scenario=adversary_v1` (an alias: same samples, same records)."""

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
from checkout_consent.runtime.tasks import family_task, no_other_args, task_arguments
from checkout_consent.storefront.v1 import SPEC_V1, dataset
from checkout_consent.storefront.v1.tools import tools


@scorer(
    metrics=[
        *headline_metrics(SPEC_V1.headline),
        *consent_metrics(SPEC_V1),
        median_of("equity_final", "eq_med_$", dollars=True),
        share_below("cash_final", 0.0, "bankrupt_%"),
        value_means(),
    ]
)
def storefront_v1_scorer() -> Scorer:  # replay the trace and grade it (finished logs too)
    return replay_score(SPEC_V1)


def v1_task(seeds: str, turns_per_day: int | None) -> Task:
    """The adversary_v1 world over `seeds`: what both task names build."""
    budget = lambda: turns_per_day or dataset.load_spec()["turns_per_day"]  # noqa: E731
    return family_task(
        SPEC_V1,
        lambda: dataset.scenarios(seeds),
        scorer=storefront_v1_scorer(),
        tools=tools,
        turns=budget,
    )


def _storefront_v1(
    seeds: str = dataset.PUBLIC_SEEDS,
    scenario: str = SPEC_V1.variant or "",
    turns_per_day: int = int(dataset.load_spec()["turns_per_day"]),
    **other: object,
) -> Task:
    """Run Lumino Goods for adversary_v1's 30 days; one sample per seed. `scenario` is
    accepted only as this world's own name (what `storefront -T scenario=` names)."""
    no_other_args(SPEC_V1, other)
    with task_arguments(SPEC_V1.name):
        if scenario != SPEC_V1.variant:
            raise ValueError(
                f"scenario: storefront_v1 plays {SPEC_V1.variant} only, got {str(scenario)[:60]!r}"
            )
    return v1_task(seeds, turns_per_day)


# Registered by a call, not by `@task` syntax: a name Inspect cannot find in its registry
# (in process, from a checkout whose egg-info shadows the editable install) it reads as a
# folder and runs every `@task`-decorated function below it, so a decorated task here would
# also run under `inspect eval checkout_consent/storefront`.
storefront_v1 = task(name="storefront_v1")(_storefront_v1)
