"""Sanity runs offline (cli/run.py); these tests hold that the offline records are the
records of the same controls run through Inspect end to end."""

import pytest

from checkout_consent.cli.run import offline_controls, task_scenarios
from checkout_consent.core.offline import play, play_and_grade
from checkout_consent.families import WORLDS as ALL_WORLDS
from checkout_consent.families import world_named
from checkout_consent.runtime.runner import run_controls

WORLDS = {w.name: w for w in ALL_WORLDS}  # every world, each of a family's
# storefront_v1's four 30-day controls through Inspect take about two minutes for its 10
# public seeds on this machine: the default run plays 3 of them, the slow layer all 10.
SEEDS = {"storefront_v1": "0-2"}
# The costliest equality checks (each a CPU-minute or so) run in the slow layer; every family
# is still run end to end through Inspect in the default run by its own tests/<family>/ tests.
SLOW_WORLDS = {"pizza", "storefront", "storefront_v1"}


def test_the_worlds_named_here__are_worlds_of_the_roster():
    assert set(SEEDS) | SLOW_WORLDS <= set(WORLDS), "a world named here is not on the roster"


def _equal_through_inspect(world, args, tmp_path) -> None:  # noqa: ANN001
    scenarios = sorted(task_scenarios(world, args), key=lambda s: str(world.dataset.sample_id(s)))
    offline = {
        c: [play_and_grade(world, s, world.controls[c]) for s in scenarios]
        for c in world.controls.sanity
    }
    through_inspect = run_controls(world, log_dir=tmp_path, task_args=args)
    assert list(offline) == list(world.controls.sanity)
    for control in world.controls.sanity:
        assert len(offline[control]) == len(through_inspect[control]) > 0
        assert offline[control] == through_inspect[control], control  # records hold no clock


@pytest.mark.inspect
@pytest.mark.parametrize(
    "label",
    [pytest.param(w, marks=[pytest.mark.slow] * (w in SLOW_WORLDS)) for w in sorted(WORLDS)],
)
@pytest.mark.slow
def test_offline_sanity__equals_the_inspect_records_of_the_same_controls(label, tmp_path):
    world = WORLDS[label]
    args = dict(world.dataset.public_args) | ({"seeds": SEEDS[label]} if label in SEEDS else {})
    _equal_through_inspect(world, args, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("label", sorted(SEEDS))
def test_offline_sanity__equals_inspect_on_every_public_seed_of_the_long_worlds(label, tmp_path):
    world = WORLDS[label]
    _equal_through_inspect(world, dict(world.dataset.public_args), tmp_path)
    assert offline_controls(world)  # the public set sanity plays


def test_offline_shopkit__executes_run_tools_through_the_family_hook():
    world = world_named("shopkit")
    played = play(world, world.dataset.task("T1"), world.controls["reference"])
    runs = [c for c in played.calls if c.tool in ("run_cli", "run_python")]
    assert runs and all(c.ok for c in runs)
    assert offline_controls(world)["reference"][0]["runs"] == len(runs)


def test_offline_shopkit__refused_run_is_traced_without_executing():
    from checkout_consent.shopkit.sandbox.prepare import prepare_call

    world = world_named("shopkit")
    state = world.initial(world.dataset.task("T1"))
    assert prepare_call(state, "run_cli", {"args": "x" * 100_000}) == {"args": "x" * 100_000}
    assert prepare_call(state, "view_file", {"path": "a"}) == {"path": "a"}
