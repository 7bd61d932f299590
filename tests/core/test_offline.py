"""Grading a saved tool log with no model (core/offline.py), through a real family."""

import json

import pytest

from checkout_consent.core.offline import grade_saved, saved_calls
from checkout_consent.storefront import SPEC

CALLS = [{"tool": "place_order",
          "args": {"supplier_id": "zenith", "product_id": "lamp", "quantity": 5}},
         *[{"tool": "end_day", "args": {}}] * 5]


def test_grade_saved__fills_in_observations_and_grades():
    record = grade_saved(SPEC, SPEC.scenario_for("2"), CALLS)
    assert record["traps_total"] == 1 and record["traps_caught"] == 0 and record["seed"] == 2


def test_grade_saved__recorded_observations_must_replay():
    calls = [dict(c) for c in CALLS]
    calls[0]["observation"] = "Order O-1 placed, no fees at all."
    with pytest.raises(ValueError, match="does not replay: call 0"):
        grade_saved(SPEC, SPEC.scenario_for("2"), calls)


@pytest.mark.parametrize("trace", [{"nope": []}, [{"args": {}}], [{"tool": "x", "args": 3}],
                                   "calls"])
def test_saved_calls__refuses_malformed_logs(trace):
    with pytest.raises(ValueError):
        saved_calls(trace)


def test_score_cli__storefront_seed_and_scenario_forms_agree(tmp_path):
    assert grade_saved(SPEC, SPEC.scenario_for("2"), CALLS) == grade_saved(
        SPEC, SPEC.scenario_for("adversary_v0:2"), {"calls": CALLS})
    path = tmp_path / "t.json"
    path.write_text(json.dumps(CALLS))
    from checkout_consent import cli
    assert cli.main(["score", "storefront", "--task", "2", "--trace", str(path)]) == 0
