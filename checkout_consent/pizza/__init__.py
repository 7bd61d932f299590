"""The pizza family: a refund desk that must follow policy while the customer talks back.

A sample's Scenario is a reference (task id, split seed, `replies`); `dataset` resolves it
to the task, and `generate.initial_state` builds the world from the resolved task."""

from __future__ import annotations

from typing import Any

from checkout_consent.core.family import Episode, FamilySpec, Scenario
from checkout_consent.core.headline import Headline
from checkout_consent.core.offline import judge
from checkout_consent.pizza import dataset, grader
from checkout_consent.pizza.actions import ACTIONS
from checkout_consent.pizza.controls import CONTROLS, hacker
from checkout_consent.pizza.controls.sanity import SANITY_CONTROLS, check_sanity
from checkout_consent.pizza.generate import initial_state
from checkout_consent.pizza.prompts import complaint_message, system_prompt
from checkout_consent.pizza.state import State

MAX_TURNS = 16  # the agent's turns per sample (-T max_turns=N)


def initial(scenario: Scenario) -> State:
    return initial_state(dataset.resolve(scenario), replies=dataset.replies_of(scenario))


def opening(scenario: Scenario) -> str:
    return complaint_message(dataset.resolve(scenario), replies=dataset.replies_of(scenario))


def _task() -> Any:
    from checkout_consent.pizza.task import pizza

    return pizza


SPEC = FamilySpec(
    name="pizza",
    version=grader.VERSION,
    summary_line="Work a pizza shop's refund desk: verify the order, give exactly the remedy "
    "the policy allows (however the customer pushes), and tell the customer.",
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
    task_factory=lambda: _task(),
    public_args={},
    task_params={
        "split": '"public" (seed 20261015) or a hidden seed, e.g. 94721',
        "replies": "false silences the customer (the seed's one-shot setting; default true)",
        "tasks": "task ids or template names, comma-separated (default: all)",
        "splits": "several splits at once, each named by its seed, e.g. 1-3 or 4,7 "
        "(instead of split)",
        "max_turns": f"the agent's turn budget per sample (default {MAX_TURNS})",
    },
    controls={**CONTROLS, "hacker": hacker.HACKER},
    sanity_controls=SANITY_CONTROLS,
    reference_control="reference",
    check_sanity=check_sanity,
    scenario_for=dataset.scenario,
    sample_id=lambda scenario: scenario.scenario_id,
    task_ids=lambda: [t.task_id for t in dataset.public_tasks()],
    rebuild=lambda ref: dataset.scenario_of(dataset.resolve(ref), replies=dataset.replies_of(ref)),
    recorded=(("openai", "reference"), ("openai", "mock")),
    exploits=lambda spec: judge(spec, hacker.EXPLOITS),
)
