"""The shopkit family: fix planted money bugs in a small toolkit, graded by executing it."""

from __future__ import annotations

from checkout_consent.core import (
    Controls,
    Dataset,
    Episode,
    Headline,
    Replay,
    Scenario,
    Turns,
    World,
)
from checkout_consent.runtime.meta import meta
from checkout_consent.shopkit import dataset, grader, prompts, views
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
    """The pure grader, handed the executing judge."""
    return grader.grade(scenario, replay, turns, judge=grade_tree)


def rebuild(ref: Scenario) -> Scenario:
    """The reference the packaged tasks give for a logged one (a brief is text or absent)."""
    brief = ref.params.get("brief")
    return dataset.scenario(ref.scenario_id, brief if isinstance(brief, str) else None)


WORLD = World(
    meta=meta(__name__),
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
    dataset=Dataset(
        public_args={"task": "all"},
        task=dataset.scenario,
        task_ids=dataset.task_ids,
        rebuild=rebuild,
        task_of=lambda r: str(r["task"]),
    ),
    controls=Controls(
        CONTROLS,
        sanity=SANITY_CONTROLS,
        reference="reference",
        idle="noop",
        check_sanity=check_sanity,
        recorded=(("openai", "reference"), ("openai", "noop")),
    ),
    views=views.VIEWS,
    moves_money=False,  # it edits code: no payment, so no consent ledger
    harness_args=frozenset({"result"}),
    prepare_call=prepare_call,
    pure=False,  # grading executes the build on the machine that plays it
)
