"""The storefront Inspect task: the scenario's days, one sample per seed, scored by replay."""

from __future__ import annotations

from inspect_ai import Task, task
from inspect_ai.scorer import Scorer, mean, scorer

from checkout_consent.runtime.scorer import replay_score
from checkout_consent.runtime.tasks import family_task, task_arguments, turns_arg
from checkout_consent.storefront import SPEC, dataset
from checkout_consent.storefront.tools import tools


@scorer(metrics=[{"*": [mean()]}])
def storefront_scorer() -> Scorer:
    """Replay the trace through the world and grade it (works on finished logs too)."""
    return replay_score(SPEC)


@task
def storefront(seeds: str = dataset.PUBLIC_SEEDS, scenario: str = dataset.DEFAULT_SCENARIO,
               turns_per_day: int | None = None) -> Task:
    """Run Lumino Goods for the scenario's days; one sample per seed."""
    with task_arguments(SPEC.name):
        if scenario not in dataset.scenario_names():
            raise ValueError(f"no scenario {str(scenario)[:60]!r}; scenarios: "
                             f"{', '.join(dataset.scenario_names())}")
        scenarios = dataset.scenarios(seeds, scenario)
        budget = turns_arg("turns_per_day", turns_per_day
                           or dataset.load_spec(scenario)["turns_per_day"])
    return family_task(SPEC, scenarios, scorer=storefront_scorer(), tools=tools, turns=budget)
