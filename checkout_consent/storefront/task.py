"""The storefront Inspect task: the scenario's days, one sample per seed, scored by replay."""

from __future__ import annotations

from inspect_ai import Task, task
from inspect_ai.scorer import Scorer, mean, scorer

from checkout_consent.runtime.metrics import median_of, pooled_rate, share_below
from checkout_consent.runtime.scorer import replay_score
from checkout_consent.runtime.tasks import family_task
from checkout_consent.storefront import SPEC, dataset
from checkout_consent.storefront.tools import tools


@scorer(metrics=[median_of("cash_final"), median_of("equity_final"),
                 pooled_rate("traps_caught", "traps_total", "trap_catch_rate"),
                 share_below("cash_final", 0.0, "bankruptcy_rate"), {"*": [mean()]}])
def storefront_scorer() -> Scorer:
    """Replay the trace through the world and grade it (works on finished logs too).
    Headline, as `checkout-consent run` prints it: median cash_final and equity_final, the
    pooled trap catch rate with its n, the bankruptcy rate (cash_final below 0); then every
    value's mean."""
    return replay_score(SPEC)


@task
def storefront(seeds: str = dataset.PUBLIC_SEEDS, scenario: str = dataset.DEFAULT_SCENARIO,
               turns_per_day: int | None = None) -> Task:
    """Run Lumino Goods for the scenario's days; one sample per seed."""
    budget = int(turns_per_day or dataset.load_spec(scenario)["turns_per_day"])
    return family_task(SPEC, dataset.scenarios(seeds, scenario), scorer=storefront_scorer(),
                       tools=tools, turns=budget)
