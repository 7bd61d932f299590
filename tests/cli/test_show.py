"""`show` takes run's -T options: every -T value is checked as `run` checks it, and a bad
one is one line, exit 2. Two worlds of one family are two worlds: each shows its own task
for the same id, and the scenario that became a world of its own is no scenario of its
family's first world (`-T scenario=X` and the old `X:ID` are refused in one line naming the
world it became)."""

from __future__ import annotations

import pytest

from checkout_consent.cli.main import main
from checkout_consent.core.contract import World
from checkout_consent.families import WORLDS

# a world of a family beside its first (its eval.yaml names a scenario), and that first world
SIBLING = next(w for w in WORLDS if w.meta.scenario is not None)
FIRST = next(w for w in WORLDS if w.family == SIBLING.family and w.meta.scenario is None)
OLD = SIBLING.meta.scenario  # the scenario id it had inside FIRST


def _show(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["show", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_show__two_worlds_of_a_family_each_show_their_own_task(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, first, _ = _show(capsys, FIRST.name, "3")
    assert code == 0 and first
    code, sibling, _ = _show(capsys, SIBLING.name, "3")
    assert code == 0 and sibling and sibling != first  # its own world, not the family's first
    # the scenario FIRST plays by default, named by -T: the same task, nothing said
    default = FIRST.dataset.task("3").scenario_id
    code, same, err = _show(capsys, FIRST.name, "3", "-T", f"scenario={default}")
    assert (code, same, err) == (0, first, "")


@pytest.mark.parametrize("argv", [["3", "-T", f"scenario={OLD}"], [f"{OLD}:3"]])
def test_show__the_scenario_that_became_a_world_is_refused_naming_that_world(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _show(capsys, FIRST.name, *argv)
    assert code == 2 and out == "" and len(err.splitlines()) == 1, err
    assert f"checkout_consent/{SIBLING.name}" in err


@pytest.mark.parametrize(
    "world, option",
    [
        (FIRST, "scenario=no-such-world"),
        (FIRST, "no_such_param=1"),
        (SIBLING, f"scenario={OLD}"),  # the world takes no scenario: it is one
        (SIBLING, "no_such_param=1"),
    ],
    ids=lambda x: x.name if isinstance(x, World) else x,
)
def test_show__a_bad_t_is_refused_in_one_line(
    world: World, option: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _show(capsys, world.name, "3", "-T", option)
    assert code == 2 and out == "" and len(err.splitlines()) == 1, err
