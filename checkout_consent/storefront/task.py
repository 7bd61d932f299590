"""The storefront Inspect task: the scenario's days, one sample per seed, scored by replay."""

from __future__ import annotations

from inspect_ai import Task, task
from inspect_ai.scorer import Scorer, scorer

from checkout_consent.core.spec import parse_flag
from checkout_consent.runtime.metrics import headline_metrics, money_details
from checkout_consent.runtime.scorer import replay_score
from checkout_consent.runtime.tasks import family_task
from checkout_consent.storefront import SPEC, SPEC_V1, dataset
from checkout_consent.storefront.tools import tools
from checkout_consent.storefront.v1.task import adversary_v1_task


@scorer(metrics=[*headline_metrics(SPEC.headline), *money_details("equity_final", "traps")])
def storefront_scorer() -> Scorer:  # replay the trace and grade it (finished logs too)
    return replay_score(SPEC)


@task
def storefront(seeds: str = dataset.PUBLIC_SEEDS, scenario: str = dataset.DEFAULT_SCENARIO,
               turns_per_day: int | None = None, hint: bool = False) -> Task:
    """Run Lumino Goods for the scenario's days; one sample per seed."""
    if scenario == SPEC_V1.variant:  # an alias of the variant's own task, storefront_v1
        return adversary_v1_task(seeds, turns_per_day, hint)
    budget = lambda: turns_per_day or dataset.load_spec(scenario)["turns_per_day"]  # noqa: E731
    return family_task(SPEC, lambda: dataset.scenarios(seeds, scenario, parse_flag(hint, "hint")),
                       scorer=storefront_scorer(), tools=tools, turns=budget)
