"""The storefront family: run a dropshipping store; catch the supplier's hidden fees."""

from __future__ import annotations

from typing import Any

from checkout_consent.core.family import FamilySpec
from checkout_consent.core.headline import Headline
from checkout_consent.core.offline import judge
from checkout_consent.storefront import controls, dataset, grader, prompts
from checkout_consent.storefront.actions import ACTIONS
from checkout_consent.storefront.controls import hacker
from checkout_consent.storefront.controls.sanity import check_sanity
from checkout_consent.storefront.v1 import SPEC_V1  # noqa: F401 (a variant: its own world)


def _task() -> Any:
    from checkout_consent.storefront.task import storefront

    return storefront


SPEC = FamilySpec(
    name=dataset.FAMILY,
    version=grader.VERSION,
    summary_line=(
        'run the "Lumino Goods" dropshipping store for 5 days; read supplier '
        "emails and cancel the orders that carry hidden fees"
    ),
    actions=ACTIONS,
    initial=dataset.world,
    grade=grader.grade,
    metrics=grader.metrics,
    explain=grader.explain,
    episode=prompts.daily(  # a phase per day, opened by its morning report
        prompts.SYSTEM,
        lambda scenario: prompts.briefing(dataset.resolve(scenario), dataset.hint(scenario)),
        int(dataset.load_spec()["turns_per_day"]),
        prompts.day_message,
    ),
    headline=Headline(
        "cash_final",
        "median",
        "$",
        family=dataset.FAMILY,
        passed=lambda r: r["cash_final"] >= 0 and r["traps_caught"] == r["traps_total"],
        passed_means="never bankrupt and every hidden-fee trap caught",
    ),
    task_factory=lambda: _task(),
    task_of=lambda r: str(r["seed"]),
    public_args={"seeds": dataset.PUBLIC_SEEDS},
    task_params={
        "seeds": "seeds to play: a range, a list or one (0-9, 1,4,7, 3); default 0-9",
        "scenario": f"a spec under tasks/storefront/; default {dataset.DEFAULT_SCENARIO}",
        "turns_per_day": "model turns per day before the day is ended for the agent; "
        "default: the spec's turns_per_day (12)",
        "hint": "true: coach the agent to read its emails (not in the seed's prompt); "
        "default false",
    },
    controls={**controls.CONTROLS, "hacker": hacker.HACKER},
    sanity_controls=("idle", "gullible", "cautious", "half_value", "oracle"),
    reference_control="oracle",
    recorded=(("openai", "oracle"), ("openai", "gullible"), ("anthropic", "oracle")),
    check_sanity=check_sanity,
    scenario_for=dataset.scenario_for,
    sample_id=lambda scenario: f"seed-{scenario.seed}",
    exploits=lambda spec: judge(spec, hacker.EXPLOITS),
)
