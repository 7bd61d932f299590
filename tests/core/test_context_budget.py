"""The episode's context budget (core/contract.Episode): over it, a phase opens by trimming
the conversation to the opening plus a recap, and the trim is a solver call in the trace.
Exercised on a copy of storefront v0 given a budget and a trim tool (v0 itself has none)."""

from dataclasses import replace

import pytest

from checkout_consent.core.controls import Msg
from checkout_consent.core.offline import grade_saved, play
from checkout_consent.core.reconcile import first_difference
from checkout_consent.core.trace import Call
from checkout_consent.core.world import Outcome
from checkout_consent.storefront import WORLD


def context_trimmed(state):  # noqa: ANN001, ANN201 (a toy action)
    """Marks where the solver trimmed the conversation."""
    return Outcome(state, "The conversation was trimmed.")


def budgeted(budget: int | None):  # noqa: ANN201
    episode = replace(
        WORLD.episode,
        context_budget=budget,
        trim_tool="context_trimmed",
        recap=lambda state: f"RECAP of day {state.day}",
    )
    return replace(
        WORLD, actions={**WORLD.actions, "context_trimmed": context_trimmed}, episode=episode
    )


def watching(policy, seen: list[list[Msg]]):  # noqa: ANN001, ANN201
    def watched(scenario, transcript):  # noqa: ANN001, ANN202
        seen.append(list(transcript))
        return policy(scenario, transcript)

    return watched


def test_context_budget__trims_at_phase_openings_and_traces_it():
    world, seen = budgeted(1500), []
    played = play(world, world.dataset.task("3"), watching(WORLD.controls["gullible"], seen))
    trims = [i for i, c in enumerate(played.calls) if c.tool == "context_trimmed"]
    assert trims and all(played.calls[i].origin == "solver" for i in trims)
    assert all(played.calls[i - 1].tool == "end_day" for i in trims)  # between phases
    after = [t for t in seen if len(t) > 2 and t[2].text.startswith("RECAP")]
    assert after and all(t[0].role == "system" and t[1].text == seen[0][1].text for t in after)
    assert all(t[3].text.startswith("Day ") for t in after)


def test_context_budget__counts_what_the_world_showed_since_the_last_trim():
    world = budgeted(1500)
    played = play(world, world.dataset.task("3"), WORLD.controls["gullible"])
    shown = 0
    for call in played.calls:
        if call.tool == "context_trimmed":
            assert shown > 1500
            shown = 0
        shown += len(call.observation)
    assert shown < 1500 + 3000  # the last stretch never crossed a phase opening unnoticed


def test_context_budget__none_never_trims_and_changes_nothing():
    plain = play(WORLD, WORLD.dataset.task("3"), WORLD.controls["gullible"])
    unbudgeted = play(budgeted(None), WORLD.dataset.task("3"), WORLD.controls["gullible"])
    assert plain.calls == unbudgeted.calls


def test_context_budget__a_saved_trace_with_trim_calls_grades_and_a_forged_one_does_not():
    world = budgeted(1500)
    played = play(world, world.dataset.task("3"), WORLD.controls["gullible"])
    saved = [c.model_dump() for c in played.calls]
    assert grade_saved(world, world.dataset.task("3"), saved)["cash_final"] > 0
    for forged, why in (
        ({"tool": "view_state", "args": {}, "origin": "solver"}, "origin"),
        ({"tool": "context_trimmed", "args": {"x": 1}, "origin": "solver"}, "takes no argument"),
    ):
        with pytest.raises(ValueError, match=why):
            grade_saved(world, world.dataset.task("3"), [*saved[:1], forged])


def test_reconcile__accepts_solver_trim_calls_only_without_arguments():
    world = budgeted(1500)
    trim = Call(tool="context_trimmed", args={}, ok=True, observation="trimmed", origin="solver")
    assert (
        first_difference([trim], [], world.actions, solver_tools=world.episode.solver_tools) is None
    )
    with_args = [trim.model_copy(update={"args": {"days": 3}})]
    assert "claims the solver" in first_difference(
        with_args, [], world.actions, solver_tools=world.episode.solver_tools
    )


def test_context_budget__a_trace_whose_trims_were_moved_is_refused():
    world = budgeted(1500)
    played = play(world, world.dataset.task("3"), WORLD.controls["gullible"])
    saved = [c.model_dump() for c in played.calls]
    trims = [i for i, c in enumerate(saved) if c["tool"] == "context_trimmed"]
    dropped = [c for i, c in enumerate(saved) if i != trims[0]]
    early = [*saved[:1], {"tool": "context_trimmed", "args": {}, "origin": "solver"}, *saved[1:]]
    for forged, why in ((dropped, "no trim"), (early, "before the budget was spent")):
        with pytest.raises(ValueError, match=why):
            grade_saved(
                world,
                world.dataset.task("3"),
                [{k: v for k, v in c.items() if k != "observation"} for c in forged],
            )
