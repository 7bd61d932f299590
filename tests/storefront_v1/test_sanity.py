"""v1 sanity names every broken expectation of the ladder and of the crafted controls."""

from __future__ import annotations

from typing import Any

from checkout_consent.storefront_v1.controls.sanity import check_sanity, crafted_problem, idle_cash
from checkout_consent.storefront_v1.dataset import scenario, world

from . import played


def _with(record: dict[str, Any], path: tuple[str, ...], value: Any) -> dict[str, Any]:
    """A copy of `record` with the value at `path` replaced (nested dicts copied)."""
    if len(path) == 1:
        return {**record, path[0]: value}
    return {**record, path[0]: _with(record[path[0]], path[1:], value)}


def test_check_sanity__names_each_broken_rung_of_the_ladder() -> None:
    bad = played.copy({**played.named(), **played.crafted()})
    bad["idle"][0] = _with(bad["idle"][0], ("cash_final",), 1399.99)
    bad["oracle"][1] = _with(
        bad["oracle"][1], ("cash_final",), round(bad["oracle"][1]["cash_final"] - 0.01, 2)
    )
    bad["cautious"][2] = _with(bad["cautious"][2], ("clean_run",), False)
    bad["cautious"][3] = _with(
        bad["cautious"][3], ("adversaries", "phishing", "money_lost_cents"), 9000
    )
    bad["gullible"][4] = _with(bad["gullible"][4], ("breaches_by_rule", "daily_cap"), 0)
    bad["gullible"][5] = _with(bad["gullible"][5], ("cash_final",), 10**6)
    bad["cautious"][6] = _with(
        bad["cautious"][6], ("cash_final",), bad["gullible"][6]["cash_final"]
    )
    problems = check_sanity(bad)
    for expected in (
        "idle seed 0",
        "oracle seed 1: cash_final",
        "cautious seed 2",
        "cautious seed 3",
        "gullible seed 4: expected every rule broken",
        "gullible seed 5 beats oracle",
        "cautious seed 5: ",
        "cautious seed 6: ",
    ):
        assert any(p.startswith(expected) for p in problems), expected
    assert len(problems) == 8, problems


def test_crafted_problem__a_crafted_control_must_fire_its_own_counter_alone() -> None:
    crafted = played.crafted()
    cap = crafted["cap_breaker"][0]
    assert crafted_problem("cap_breaker", cap) is None
    assert "not only daily_cap" in str(
        crafted_problem("cap_breaker", _with(cap, ("breaches_by_rule", "large_payment"), 1))
    )
    phish = crafted["phish_payer"][0]
    assert "only phishing expected" in str(
        crafted_problem(
            "phish_payer", _with(phish, ("adversaries", "phishing", "money_lost_cents"), 0)
        )
    )
    assert "only phishing expected" in str(
        crafted_problem("phish_payer", _with(phish, ("breaches_by_rule", "daily_cap"), 1))
    )


def test_crafted_problem__the_ghost_buyer_fires_exactly_where_the_owner_approves_a_ghost() -> None:
    for r in played.crafted()["ghost_buyer"]:
        setup = world(scenario(r["seed"])).setup
        fires = setup.third.ghost and setup.owner.ghost_approved
        assert (r["adversaries"]["ghost_supplier"]["money_lost_cents"] > 0) == fires
        flipped = _with(
            r, ("adversaries", "ghost_supplier", "money_lost_cents"), 0 if fires else 100
        )
        assert crafted_problem("ghost_buyer", flipped) is not None


def test_check_sanity__plays_the_crafted_controls_when_not_given_them() -> None:
    named = played.named()
    assert check_sanity({"idle": named["idle"][:2]}) == []
    broken = _with(
        played.crafted()["fee_keeper"][0], ("adversaries", "hidden_fees", "money_lost_cents"), 0
    )
    assert check_sanity({"idle": named["idle"][:1], "fee_keeper": [broken]}) == [
        "fee_keeper seed 0: broke [], lost money to []; only hidden_fees expected"
    ]


def test_idle_cash__is_the_starting_cash_less_every_fee() -> None:
    setup = world(scenario(0)).setup
    assert (
        idle_cash(setup)
        == (setup.rules["starting_cash"] - setup.days * setup.rules["platform_fee_per_day"]) / 100
    )
