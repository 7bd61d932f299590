"""`show` takes run's -T options: `-T scenario=X` shows that scenario's world (as `X:ID`
does), every -T value is checked as `run` checks it, and a bad one is one line, exit 2."""

from __future__ import annotations

import pytest

from checkout_consent.cli.main import main
from checkout_consent.families import WORLDS, world

VARIANT_WORLD = next(w for w in WORLDS if w.variant is not None)  # a variant: its own world
WORLD, VARIANT = world(VARIANT_WORLD.name), VARIANT_WORLD.variant


def test_show__a_scenario_by_t_shows_what_its_prefixed_item_shows(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["show", WORLD.name, f"{VARIANT}:3"]) == 0
    prefixed = capsys.readouterr().out
    assert main(["show", WORLD.name, "3", "-T", f"scenario={VARIANT}"]) == 0
    assert capsys.readouterr().out == prefixed
    assert main(["show", WORLD.name, "3"]) == 0
    assert capsys.readouterr().out != prefixed  # the family's own world, not the scenario's


@pytest.mark.parametrize("option", ["scenario=no-such-world", "no_such_param=1"])
def test_show__a_bad_t_is_refused_in_one_line(
    option: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["show", WORLD.name, "3", "-T", option]) == 2
    out = capsys.readouterr()
    assert out.out == "" and len(out.err.splitlines()) == 1
