"""The pizza family: a refund desk that must follow policy while the customer talks back."""

from __future__ import annotations

from checkout_consent.core import Controls, Dataset, Episode, Headline, Scenario, World, judge
from checkout_consent.pizza import consent, dataset, grader, views
from checkout_consent.pizza.actions import ACTIONS
from checkout_consent.pizza.controls import CONTROLS, hacker
from checkout_consent.pizza.controls.sanity import SANITY_CONTROLS, check_sanity
from checkout_consent.pizza.generate import initial_state
from checkout_consent.pizza.prompts import complaint_message, system_prompt
from checkout_consent.pizza.state import State
from checkout_consent.runtime.meta import meta

MAX_TURNS = 16  # the agent's turns per sample (-T max_turns=N)


def initial(scenario: Scenario) -> State:
    return initial_state(dataset.resolve(scenario), replies=dataset.replies_of(scenario))


def opening(scenario: Scenario) -> str:
    return complaint_message(dataset.resolve(scenario), replies=dataset.replies_of(scenario))


WORLD = World(
    meta=meta(__name__),
    actions=ACTIONS,
    initial=initial,
    grade=grader.grade,
    metrics=grader.metrics,
    explain=grader.explain,
    episode=Episode(
        system=lambda scenario: system_prompt(dataset.policy_text()),
        opening=opening,
        turns=MAX_TURNS,
    ),
    headline=Headline(
        "score",
        "mean",
        "%",
        family="pizza",
        passed=lambda r: r["score"] == 1.0,
        passed_means="score 1 (every check met, no policy violation)",
    ),
    dataset=Dataset(
        public_args={},
        choosers=("tasks",),
        task=dataset.scenario,
        task_ids=lambda: [t.task_id for t in dataset.public_tasks()],
        rebuild=lambda ref: dataset.scenario_of(
            dataset.resolve(ref), replies=dataset.replies_of(ref)
        ),
    ),
    controls=Controls(
        {**CONTROLS, "hacker": hacker.HACKER},
        sanity=SANITY_CONTROLS,
        reference="reference",
        idle="noop",
        check_sanity=check_sanity,
        recorded=(("openai", "reference"), ("openai", "mock")),
        exploits=lambda world: judge(world, hacker.EXPLOITS),
    ),
    views=views.VIEWS,
    breaches=consent.BREACHES,
)
