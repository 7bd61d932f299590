"""The coinjar world: pay one invoice exactly (the scratch world a test adds)."""

from __future__ import annotations

from checkout_consent.coinjar import controls, dataset, grader, prompts, views
from checkout_consent.coinjar.actions import ACTIONS
from checkout_consent.core import Controls, Dataset, Episode, Headline, World
from checkout_consent.runtime.meta import meta

WORLD = World(
    meta=meta(__name__),
    actions=ACTIONS,
    initial=dataset.initial,
    grade=grader.grade,
    metrics=grader.metrics,
    explain=grader.explain,
    episode=Episode(system=prompts.system, opening=prompts.opening, turns=4),
    headline=Headline(
        key="score",
        statistic="mean",
        unit="%",
        family="coinjar",
        passed=lambda r: r["score"] == 1.0,
        passed_means="the exact invoice paid",
    ),
    dataset=Dataset(
        public_args={"tasks": "small,large"},
        task=dataset.scenario,
        sample_id=lambda scenario: scenario.scenario_id,
        task_ids=lambda: list(dataset.INVOICES),
    ),
    controls=Controls(
        controls.CONTROLS,
        sanity=("exact", "over"),
        reference="exact",
        idle="idle",
        check_sanity=controls.check_sanity,
    ),
    views=views.VIEWS,
    moves_money=False,  # a toy: it carries no consent ledger
)
