"""The v1 controls through the pure world (core.offline.play, no Inspect): the ladder they
make, that they play exactly their simulated plan (context trims included), and that they
read nothing of the prompt but the "Day N of M." line."""

from __future__ import annotations

from dataclasses import replace

import pytest

from checkout_consent.core.controls import Msg
from checkout_consent.core.offline import play
from checkout_consent.storefront import dataset as v0_dataset
from checkout_consent.storefront_v1 import WORLD, dataset
from checkout_consent.storefront_v1.controls.oracle import oracle_plan
from checkout_consent.storefront_v1.controls.plans import cautious_plan, gullible_plan
from checkout_consent.storefront_v1.controls.sanity import check_sanity
from checkout_consent.storefront_v1.controls.script import simulate

from . import played


def test_controls__pass_sanity_on_seeds_0_to_9() -> None:
    assert check_sanity({**played.named(), **played.crafted()}) == []


def test_controls__never_run_out_of_turns() -> None:
    for name, rows in played.named().items():
        assert [r["auto_ended_days"] for r in rows] == [0] * len(rows), name


@pytest.mark.parametrize("plan", [gullible_plan, cautious_plan, oracle_plan])
def test_controls__play_their_simulated_plan_call_for_call(plan) -> None:
    """Offline play, with the solver trimming the context on the way, makes exactly the
    calls the plan's simulation made: the control never loses its place."""
    name = plan.__name__.removesuffix("_plan")
    for seed in (0, 7):
        run = play(WORLD, dataset.scenario(seed), WORLD.controls[name])
        agent = [(c.tool, c.args) for c in run.calls if c.origin == "agent" and c.tool != "end_day"]
        simulated = simulate(dataset.world(dataset.scenario(seed)), plan)
        assert agent == [call for day in simulated.days for call in day]
        assert run.state.cash_cents == simulated.final.cash_cents
        assert run.state.context_trimmed_days  # the month overflows the context budget


def _transcript(seed: int, name: str, upto: int) -> list[Msg]:
    """The transcript a control saw before its `upto`-th turn of a real run."""
    seen: list[list[Msg]] = []

    def spy(scenario, transcript):
        seen.append(list(transcript))
        return WORLD.controls[name](scenario, transcript)

    play(WORLD, dataset.scenario(seed), spy)
    return seen[upto]


@pytest.mark.parametrize("name", ["gullible", "cautious", "oracle"])
def test_controls__read_only_the_day_line_and_their_own_calls(name) -> None:
    """Blank every tool result and every other text: the reply is the same."""
    ref = dataset.scenario(2)
    for upto in (3, 15, 29):
        transcript = _transcript(2, name, upto)
        blanked = [
            replace(m, text="")
            if m.role == "tool" or (m.role == "user" and "Day " not in m.text)
            else m
            for m in transcript
        ]
        day_lines = [
            replace(m, text=m.text.splitlines()[0])
            if m.role == "user" and m.text.startswith("Day ")
            else m
            for m in blanked
        ]
        policy = WORLD.controls[name]
        assert policy(ref, day_lines) == policy(ref, transcript)


def test_controls__refuse_another_worlds_reference_in_one_line() -> None:
    # storefront's own scenario, and the reference the scenario had while it was
    # storefront's (family storefront, scenario adversary_v1): neither is this world's
    old_home = dataset.scenario(0).model_copy(update={"world": "storefront"})
    for ref in (v0_dataset.scenario(0), old_home):
        with pytest.raises(ValueError, match="not a storefront_v1 scenario") as refused:
            WORLD.controls["oracle"](ref, [Msg("user", "Day 1 of 30.")])
        assert "\n" not in str(refused.value)


@pytest.mark.parametrize(
    ("transcript", "says"),
    [
        ([Msg("user", "Good morning.")], "no 'Day N of M.' message"),
        ([Msg("user", "Day 0 of 30.")], "day 0 is not a day of this 30-day run"),
        ([Msg("user", "Day 31 of 30.")], "day 31 is not a day of this 30-day run"),
    ],
)
def test_controls__refuse_a_transcript_without_a_day_of_the_run(transcript, says) -> None:
    with pytest.raises(ValueError, match=says):
        WORLD.controls["cautious"](dataset.scenario(0), transcript)


def test_controls__play_the_same_run_twice() -> None:
    first = play(WORLD, dataset.scenario(4), WORLD.controls["cautious"])
    second = play(WORLD, dataset.scenario(4), WORLD.controls["cautious"])
    assert first.calls == second.calls and first.turns == second.turns
