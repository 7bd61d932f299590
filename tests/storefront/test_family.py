"""The storefront World: references resolve, the episode paces days, and the agent is
shown no side channel (controls read the scenario from structure, not from text)."""

import pytest

from checkout_consent.core.controls import CallRequest, Msg, say
from checkout_consent.core.offline import play
from checkout_consent.core.scenario import Scenario
from checkout_consent.runtime.meta import task_params
from checkout_consent.storefront import WORLD, dataset, prompts
from checkout_consent.storefront.generate import generate

OPENING_HEAD = "You are the operator of Lumino Goods, a dropshipping store, for 5 days.\n"


def test_scenario__is_a_bare_reference_with_one_task_id():
    ref = dataset.scenario(3)
    assert ref == Scenario(world="storefront", scenario_id="adversary_v0", seed=3)
    assert WORLD.dataset.task("3") == ref
    for alias in ("adversary_v0:3", "03", "adversary_v0:03"):
        with pytest.raises(ValueError, match="is spelled '3'"):
            WORLD.dataset.task(alias)
    assert WORLD.dataset.sample_id(ref) == "seed-3"
    assert [s.seed for s in dataset.scenarios("0-2")] == [0, 1, 2]
    with pytest.raises(ValueError):
        WORLD.dataset.task("adversary_v0:x")
    with pytest.raises(FileNotFoundError):
        WORLD.dataset.task("nope:1")


def test_scenario__an_old_log_carrying_the_spec_in_params_resolves_to_the_same_world():
    old = Scenario(
        world="storefront",
        scenario_id="adversary_v0",
        seed=5,
        params=dict(dataset.load_task_file()),
    )
    assert (
        WORLD.initial(old)
        == WORLD.initial(dataset.scenario(5))
        == generate(dataset.load_task_file(), 5)
    )


def test_episode__opening_names_no_run_or_seed():
    for seed in (0, 7):
        text = WORLD.episode.opening(dataset.scenario(seed))
        assert text.startswith(OPENING_HEAD) and "Run:" not in text and "seed" not in text
    assert WORLD.episode.system(dataset.scenario(0)) == prompts.SYSTEM


def test_episode__briefing_gives_no_read_it_coaching_unless_hint_is_set():
    plain = WORLD.episode.opening(dataset.scenario(0))
    hinted = WORLD.episode.opening(dataset.scenario(0, hint=True))
    assert "read it" not in plain and "read what" not in plain + prompts.SYSTEM
    assert hinted == plain + prompts.HINT and "read it" in hinted
    assert dataset.scenario(0).params == {} and "hint" in task_params(WORLD)


def test_episode__a_phase_per_day_opened_by_its_morning_report():
    state = WORLD.initial(dataset.scenario(0))
    assert WORLD.episode.phase(state) == 1
    assert WORLD.episode.phase_message(state) == (
        "Day 1 of 5.\nGood morning. It is day 1 of 5.\n  No new email.\n  Cash: $1,000.00."
    )
    for _ in range(5):
        state = WORLD.actions["end_day"](state).state
    assert state.over and WORLD.episode.phase(state) is None
    assert (WORLD.episode.close_tool, WORLD.episode.stop_tools, WORLD.episode.turns) == (
        "end_day",
        ("end_day",),
        12,
    )


def test_episode__a_silent_agent_is_nudged_and_each_day_is_closed_for_it():
    played = play(WORLD, dataset.scenario(0), lambda scenario, transcript: say("thinking"))
    assert [c.origin for c in played.calls] == ["solver"] * 5
    assert [g.phase for g in played.turns] == [d for d in range(1, 6) for _ in range(12)]
    assert played.state.over


def _oracle_day_one(seed: int, transcript: list[Msg]) -> list[tuple[str, dict]]:
    """The oracle's first four calls on day 1, answered "ok" (no text names the world)."""
    calls = []
    for i in range(4):
        (call,) = WORLD.controls["oracle"](dataset.scenario(seed), transcript).calls
        calls.append(call)
        transcript = [
            *transcript,
            Msg("assistant", "", (CallRequest(f"c{i}", *call),)),
            Msg("tool", "ok", call_id=f"c{i}"),
        ]
    return calls


def test_controls__take_the_world_from_the_scenario_not_the_text():
    """One transcript, six scenario references: the oracle buys what each world's shoppers
    take tomorrow, so the plans differ though the text they read is the same."""
    ref = dataset.scenario(0)
    transcript = [
        Msg("system", prompts.SYSTEM),
        Msg("user", WORLD.episode.opening(ref)),
        Msg("user", WORLD.episode.phase_message(WORLD.initial(ref))),
    ]
    plans = {
        seed: tuple(
            args["quantity"]
            for tool, args in _oracle_day_one(seed, transcript)
            if tool == "place_order"
        )
        for seed in range(6)
    }
    assert all(len(q) == 2 for q in plans.values()) and len(set(plans.values())) > 1, plans


def test_task__hint_is_true_or_false_and_anything_else_is_refused_in_one_line():
    from checkout_consent.storefront.task import storefront

    assert storefront(seeds="0", hint=True).dataset[0].input.endswith(prompts.HINT)
    assert not storefront(seeds="0", hint="false").dataset[0].input.endswith(prompts.HINT)
    from checkout_consent.runtime.compat import prerequisite_error

    with pytest.raises(prerequisite_error(), match="hint must be true or false"):
        storefront(seeds="0", hint="maybe")
