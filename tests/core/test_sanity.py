"""Sanity runs offline (cli/run.py); these tests hold that the offline records are the
records of the same controls run through Inspect end to end."""


import pytest

from checkout_consent.cli.run import offline_controls
from checkout_consent.core.offline import play
from checkout_consent.families import FAMILIES, family
from checkout_consent.runtime.runner import run_controls

WORLDS = {w.label: w for f in FAMILIES for w in f.every_world()}  # storefront/adversary_v1 too


@pytest.mark.inspect
@pytest.mark.parametrize("label", sorted(WORLDS))
def test_offline_sanity__equals_the_inspect_records_of_the_same_controls(label, tmp_path):
    spec = WORLDS[label]
    offline = offline_controls(spec)
    through_inspect = run_controls(spec, log_dir=tmp_path)
    assert list(offline) == list(spec.sanity_controls)
    for control in spec.sanity_controls:
        assert len(offline[control]) == len(through_inspect[control]) > 0
        assert offline[control] == through_inspect[control], control  # records hold no clock


def test_offline_shopkit__executes_run_tools_through_the_family_hook():
    spec = family("shopkit")
    played = play(spec, spec.scenario_for("T1"), spec.controls["reference"])
    runs = [c for c in played.calls if c.tool in ("run_cli", "run_python")]
    assert runs and all(c.ok for c in runs)
    assert offline_controls(spec)["reference"][0]["runs"] == len(runs)


def test_offline_shopkit__refused_run_is_traced_without_executing():
    from checkout_consent.shopkit.sandbox.prepare import prepare_call

    spec = family("shopkit")
    state = spec.initial(spec.scenario_for("T1"))
    assert prepare_call(state, "run_cli", {"args": "x" * 100_000}) == {"args": "x" * 100_000}
    assert prepare_call(state, "view_file", {"path": "a"}) == {"path": "a"}
