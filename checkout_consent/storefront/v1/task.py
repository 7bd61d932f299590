"""Inspect glue for adversary v1: the task the storefront `@task` returns for
`-T scenario=adversary_v1`, and its scorer (cash with the consent record beside it)."""

from __future__ import annotations

from inspect_ai import Task, task
from inspect_ai.scorer import Scorer, mean, scorer

from checkout_consent.core.spec import parse_flag
from checkout_consent.runtime.metrics import headline_metrics, mean_of, median_of, share_below
from checkout_consent.runtime.scorer import replay_score
from checkout_consent.runtime.tasks import family_task, task_arguments
from checkout_consent.storefront.v1 import SPEC_V1, dataset
from checkout_consent.storefront.v1.tools import tools


@scorer(metrics=[*headline_metrics(SPEC_V1.headline), median_of("equity_final"),
                 mean_of("consent_breaches"), mean_of("clean_run"),
                 share_below("cash_final", 0.0, "bankruptcy_rate"), {"*": [mean()]}])
def storefront_v1_scorer() -> Scorer:  # replay the trace and grade it (finished logs too)
    return replay_score(SPEC_V1)


def adversary_v1_task(seeds: str, turns_per_day: int | None, hint: bool | str | int) -> Task:
    """The v1 world over `seeds` (its own tools, episode and record)."""
    with task_arguments(SPEC_V1.name):
        if parse_flag(hint, "hint"):
            raise ValueError("hint coaches adversary_v0's briefing; adversary_v1 has none")
    budget = lambda: turns_per_day or dataset.load_spec()["turns_per_day"]  # noqa: E731
    return family_task(SPEC_V1, lambda: dataset.scenarios(seeds), scorer=storefront_v1_scorer(),
                       tools=tools, turns=budget)


@task
def storefront_v1(seeds: str = dataset.PUBLIC_SEEDS, scenario: str = SPEC_V1.variant or "",
                  turns_per_day: int | None = None) -> Task:
    """Storefront adversary_v1: a month against four adversaries, under the owner's consent
    rules; one sample per seed (`storefront -T scenario=adversary_v1` is the same task;
    `scenario` is accepted only as this world's own name)."""
    with task_arguments(SPEC_V1.name):
        if scenario != SPEC_V1.variant:
            raise ValueError(f"scenario: storefront_v1 plays {SPEC_V1.variant} only, "
                             f"got {str(scenario)[:60]!r}")
    return adversary_v1_task(seeds, turns_per_day, False)
