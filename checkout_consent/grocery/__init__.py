"""The grocery family: build a household's weekly cart to a brief (menu, budget, promos,
stock), hand it over for approval, and never place the order.

A sample's Scenario names a task (and optionally the scoring date); `dataset` resolves it
to the brief and catalog, and the pure grader scores the replayed cart."""

from __future__ import annotations

from checkout_consent.core.family import Episode, FamilySpec, Scenario, Turns
from checkout_consent.core.trace import Replay
from checkout_consent.grocery import dataset, grader, prompts, submission, surface
from checkout_consent.grocery.actions import ACTIONS
from checkout_consent.grocery.authoring.build import add_commands
from checkout_consent.grocery.controls import CONTROLS
from checkout_consent.grocery.generate import initial_state
from checkout_consent.grocery.record import GroceryRecord
from checkout_consent.grocery.state import State

MAX_TURNS = 40  # the agent's turns per sample (-T turns=N)


def initial(scenario: Scenario) -> State:
    return initial_state(dataset.brief_for(scenario), dataset.catalog_for(scenario))


def grade(scenario: Scenario, replay: Replay[State], turns: Turns) -> GroceryRecord:
    return grader.grade_run(b := dataset.brief_for(scenario), dataset.catalog_for(scenario),
                            dataset.load_catalog(b.catalog_version), dataset.scored_on(scenario),
                            replay, turns)


SPEC = FamilySpec(
    name="grocery",
    version=grader.VERSION,
    summary_line="Build a household's weekly grocery cart to its brief (menu, budget, diet, "
    "promos, stock), hand it over with submit_cart, and never place the order.",
    actions=ACTIONS,
    initial=initial,
    grade=grade,
    metrics=grader.metrics,
    explain=grader.explain,
    episode=Episode(system=lambda scenario: prompts.SYSTEM_PROMPT,
                    opening=lambda scenario: prompts.brief_message(dataset.brief_for(scenario)),
                    turns=MAX_TURNS, stop_tools=("submit_cart", "place_order"),
                    nudge=prompts.NUDGE),
    public_args={"tasks": "public"},
    task_params={
        "tasks": '"public" (all eleven), task ids comma-separated, or "heldout" (written by '
                 "`checkout-consent grocery build heldout --seed N`)",
        "scored_on": "the scoring date, YYYY-MM-DD, for tight-week's dated promo rule "
                     "(default: after the fix, promo prices)",
        "turns": f"the agent's turn budget per sample (default {MAX_TURNS})",
    },
    controls=CONTROLS,
    sanity_controls=surface.SANITY_CONTROLS,
    reference_control="reference",
    check_sanity=surface.check_sanity,
    line=surface.line,
    summary=surface.summary,
    list_items=surface.list_items,
    show=surface.show,
    scenario_for=dataset.scenario,
    sample_id=lambda scenario: scenario.scenario_id,
    recorded=(("openai", "reference"), ("openai", "gullible")),
    add_commands=add_commands,
    score_submission=lambda data: submission.score_submission(data).model_dump(mode="json"),
    task_ids=lambda: list(dataset.PUBLIC_IDS),
)
