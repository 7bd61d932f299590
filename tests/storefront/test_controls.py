"""The controls through the pure world (no Inspect): they bracket the score range."""

import json
from pathlib import Path

from checkout_consent.storefront import WORLD
from checkout_consent.storefront.controls.sanity import check_sanity

from .helpers import control_record

GOLDEN = Path(__file__).parent / "golden_controls.json"
CONTROLS = ("idle", "gullible", "cautious", "half_value", "oracle")


def records() -> dict[str, list[dict]]:
    return {
        c: [control_record(c, seed).model_dump(mode="json") for seed in range(10)] for c in CONTROLS
    }


def golden_rows(recs: dict[str, list[dict]]) -> dict[str, list[list]]:
    keys = (
        "seed",
        "cash_final",
        "equity_final",
        "traps_caught",
        "traps_total",
        "traps_pending",
        "trap_cost_paid_cents",
    )
    return {c: [[r[k] for k in keys] for r in rows] for c, rows in recs.items()}


def test_controls__pass_sanity_on_seeds_0_to_9():
    assert check_sanity(records()) == []


def test_controls__match_the_golden_figures_of_this_world_version():
    """Golden figures were produced by executing the controls (tests/storefront/
    make_golden.py). A change that moves them must bump grader.VERSION and regenerate."""
    golden = json.loads(GOLDEN.read_text())
    assert golden["world_version"] == WORLD.world_version, "regenerate golden_controls.json"
    assert golden_rows(records()) == golden["controls"]


def test_check_sanity__catches_a_broken_bracket():
    bad = records()
    bad["idle"][0] = {**bad["idle"][0], "cash_final": 899.99}
    bad["cautious"][1] = {**bad["cautious"][1], "traps_caught": 0}
    bad["gullible"][2] = {**bad["gullible"][2], "cash_final": 10_000.0}
    bad["oracle"][3] = {**bad["oracle"][3], "cash_final": bad["oracle"][3]["cash_final"] - 1}
    problems = check_sanity(bad)
    assert any("idle seed 0" in p for p in problems)
    assert any("cautious seed 1" in p for p in problems)
    assert any("gullible seed 2 beats oracle" in p for p in problems)
    assert any("oracle seed 3" in p and "proven bound" in p for p in problems)
