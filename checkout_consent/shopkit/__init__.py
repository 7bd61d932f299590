"""The shopkit family: fix planted money bugs in a small toolkit, graded by executing it."""

from __future__ import annotations

from typing import Any

from checkout_consent.core.family import Episode, FamilySpec, Scenario, Turns
from checkout_consent.core.headline import Headline
from checkout_consent.core.trace import Replay
from checkout_consent.shopkit import dataset, grader, prompts
from checkout_consent.shopkit.actions import ACTIONS
from checkout_consent.shopkit.controls import CONTROLS
from checkout_consent.shopkit.controls.sanity import SANITY_CONTROLS, check_sanity
from checkout_consent.shopkit.generate import generate
from checkout_consent.shopkit.grading import grade_tree
from checkout_consent.shopkit.record import ShopkitRecord
from checkout_consent.shopkit.sandbox.prepare import prepare_call
from checkout_consent.shopkit.state import State


def initial(scenario: Scenario) -> State:
    return generate(*dataset.resolve(scenario))


def grade(scenario: Scenario, replay: Replay[State], turns: Turns) -> ShopkitRecord:
    """The pure grader, handed the executing judge and the world version."""
    return grader.grade(scenario, replay, turns, judge=grade_tree, world_version=SPEC.world_version)


def rebuild(ref: Scenario) -> Scenario:
    """The reference the packaged tasks give for a logged one (a brief is text or absent)."""
    brief = ref.params.get("brief")
    return dataset.scenario(ref.scenario_id, brief if isinstance(brief, str) else None)


def _task() -> Any:
    from checkout_consent.shopkit.task import shopkit

    return shopkit


SPEC = FamilySpec(
    name="shopkit",
    moves_money=False,  # it edits code: no payment, so no consent ledger
    version=grader.VERSION,
    summary_line="fix planted money bugs in a small Python toolkit to a brief; graded by "
    "executing the build on axes never pooled: change, regress (the seed's 13) "
    "and regress_extra",
    actions=ACTIONS,
    initial=initial,
    grade=grade,
    metrics=grader.metrics,
    explain=grader.explain,
    episode=Episode(
        system=prompts.system,
        opening=prompts.opening,
        turns=40,
        stop_tools=("finish",),
        nudge=prompts.NUDGE,
        other_solver_tools=("bash", "python"),  # shopkit_inspect_tools: Inspect's own
    ),
    headline=Headline(
        "change",
        "mean",
        "",
        family="shopkit",
        places=4,
        passed=lambda r: r["change"] == 1.0 and r["regress"] == 1.0,
        passed_means="every change assertion and every regression assertion holds",
    ),
    task_factory=lambda: _task(),
    task_of=lambda r: str(r["task"]),
    public_args={"task": "all"},
    task_params={
        "task": "T1-T5, a comma list, or all (default all: the public set)",
        "brief": "a custom brief the agent reads instead of the task's own",
        "turns": "the turn budget (default 40)",
    },
    controls=CONTROLS,
    sanity_controls=SANITY_CONTROLS,
    reference_control="reference",
    recorded=(("openai", "reference"), ("openai", "noop")),
    check_sanity=check_sanity,
    scenario_for=dataset.scenario,
    sample_id=lambda scenario: scenario.scenario_id,
    task_ids=dataset.task_ids,
    harness_args=frozenset({"result"}),
    rebuild=rebuild,
    prepare_call=prepare_call,
    pure=False,  # grading executes the build on the machine that plays it
)
