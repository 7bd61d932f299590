"""Every family's reward-hacker control (`control/<family>-hacker`): each exploit played alone
is caught (at the floor, the breach counted, or a hard fail), and `sanity` prints one line
per exploit, `exploit: <what> -> caught: <the line that caught it>`; an exploit nothing
catches is a sanity problem."""

from __future__ import annotations

import dataclasses

import pytest

from checkout_consent.cli.run import hacker_problems
from checkout_consent.core.contract import Controls
from checkout_consent.core.controls import Caught, Exploit
from checkout_consent.core.offline import judge, play_and_grade
from checkout_consent.families import WORLDS, control_registry

HACKED = [w for w in WORLDS if w.controls.exploits is not None]


def test_hacker__every_money_world_has_one() -> None:
    assert {w.name for w in HACKED} >= {"storefront", "storefront_v1", "pizza", "grocery"}
    registry = control_registry()
    for w in HACKED:  # each world its own, played by its family's `hacker` control
        assert "hacker" in w.controls and f"{w.family}-hacker" in registry.names(w.family)


@pytest.mark.parametrize("world", HACKED, ids=lambda w: w.name)
def test_hacker__every_exploit_is_caught_and_scores_at_most_the_floor(world) -> None:  # noqa: ANN001
    caught = world.controls.exploits(world)
    assert len(caught) >= 2
    uncaught = [c.line() for c in caught if c.by is None]
    assert not uncaught, uncaught
    assert len({c.what for c in caught}) == len(caught)  # each exploit its own episode


@pytest.mark.parametrize("world", HACKED, ids=lambda w: w.name)
def test_hacker__the_sanity_listing_is_one_line_per_exploit(world, capsys) -> None:  # noqa: ANN001
    assert hacker_problems(world) == []
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == len(world.controls.exploits(world))
    assert all(line.strip().startswith("exploit: ") and " -> caught: " in line for line in lines)


def test_hacker__an_exploit_nothing_catches_is_a_sanity_problem(capsys) -> None:  # noqa: ANN001
    world = next(w for w in HACKED if w.name == "pizza")
    honest = world.controls["reference"]
    scenario = world.dataset.task("allergen-1")
    blind = Exploit("plays the policy", honest, lambda: scenario, lambda record: None)
    own = world.controls
    controls = Controls(
        own,
        sanity=own.sanity,
        reference=own.reference,
        idle=own.idle,
        check_sanity=own.check_sanity,
        recorded=own.recorded,
        exploits=lambda world: judge(world, [blind]),
    )
    forged = dataclasses.replace(world, controls=controls)
    problems = hacker_problems(forged)
    assert problems == ["exploit: plays the policy -> NOT caught: score 1.0"]
    assert capsys.readouterr().err.strip() == problems[0]
    assert play_and_grade(world, scenario, honest)["score"] == 1.0


def test_hacker__the_caught_line_format() -> None:
    assert Caught("x", "y").line() == "exploit: x -> caught: y"
    assert Caught("x", None, "score 1.0").line() == "exploit: x -> NOT caught: score 1.0"
