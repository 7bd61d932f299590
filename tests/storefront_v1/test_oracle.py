"""The v1 oracle is an upper bound: over 24 seeds, 240 seeded policies that keep the
consent rules (random calls, heuristic stores, the oracle's own plan perturbed, and
stocking in bulk from any supplier) and every named control never end with more cash than
the oracle on the same seed. Policies that break rules are swept too, and reported apart:
none of them beats it either, because the bound (controls/oracle.py) holds for any policy.
Each policy is simulated against the pure world (controls/script.simulate: the calls a
control plays); the oracle itself is also played through core.offline.play."""

from __future__ import annotations

import pytest

from checkout_consent.core.offline import play
from checkout_consent.storefront_v1 import WORLD, dataset
from checkout_consent.storefront_v1.controls.oracle import (
    ad_spends,
    best_day,
    bound_cents,
    landed,
    oracle_plan,
)
from checkout_consent.storefront_v1.controls.plans import cautious_plan, gullible_plan
from checkout_consent.storefront_v1.controls.script import simulate
from checkout_consent.storefront_v1.days import buyers, extra_shoppers
from checkout_consent.storefront_v1.generate import shoppers
from checkout_consent.storefront_v1.state import State

from . import played
from .policies import keeping, sweep

SEEDS, POLICIES, BREACHING = 24, 240, 30


def _world(seed: int) -> State:
    return dataset.world(dataset.scenario(seed))


def _bound(seed: int) -> int:
    return bound_cents(_world(seed).setup)


@pytest.mark.slow
def test_oracle__no_rule_keeping_policy_ends_with_more_cash() -> None:
    beaten, tried = [], 0
    for name, seed, plan in sweep(POLICIES, SEEDS):
        final = simulate(_world(seed), keeping(plan)).final
        assert final.breaches == (), name  # `keeping` kept every rule
        tried += 1
        if final.cash_cents > _bound(seed):
            beaten.append((name, seed, final.cash_cents, _bound(seed)))
    for seed in range(SEEDS):
        for plan in (gullible_plan, cautious_plan):
            final = simulate(_world(seed), plan).final
            assert final.cash_cents < _bound(seed), (plan.__name__, seed)
    assert tried >= 200 and beaten == []


def test_oracle__breaching_policies_do_not_beat_it_either() -> None:
    """Reported apart: a policy that breaks rules could only beat the oracle by breaking
    one; none does, since no rule binds the bound."""
    beaten, breached = [], 0
    for name, seed, plan in sweep(BREACHING, SEEDS):
        final = simulate(_world(seed), plan).final
        breached += bool(final.breaches)
        if final.cash_cents > _bound(seed):
            beaten.append((name, seed))
    assert breached >= BREACHING // 3 and beaten == []


def test_oracle__attains_the_bound_with_no_breach_on_every_seed() -> None:
    """Played through core.offline.play on seeds 0-9 (the records sanity checks), and
    simulated on the rest of the sweep's seeds (test_controls holds that a control plays
    exactly its simulation)."""
    for r in played.named()["oracle"]:
        assert round(r["cash_final"] * 100) == _bound(r["seed"]) and r["clean_run"]
    for seed in range(len(played.named()["oracle"]), SEEDS):
        final = simulate(_world(seed), oracle_plan).final
        assert final.cash_cents == _bound(seed) and final.breaches == (), seed
        assert len(final.orders) <= final.setup.rules["max_orders"]
    run = play(WORLD, dataset.scenario(SEEDS - 1), WORLD.controls["oracle"])
    assert run.state.cash_cents == _bound(SEEDS - 1)


def test_best_day__is_the_best_of_every_price_and_ad_spend() -> None:
    """Brute force on a few product-days: prices on a 13-cent grid and at (and a cent
    above) every valuation, ad spends on a $5 grid and the least spend for each count of
    ad shoppers: none beats best_day."""
    setup = _world(3).setup
    for day, index in ((1, 0), (9, 1), (30, 2)):
        best, cost = best_day(setup, day, index), landed(setup, setup.products[index].id)
        top = setup.products[index].values[day - 1]
        spends = set(range(0, setup.rules["ads.max_per_day"] + 1, 500)) | set(
            ad_spends(setup, index)
        )
        base, ads = shoppers(setup, day)[index]
        prices = set(range(1, top + 1, 13)) | {v + d for v in base + ads for d in (0, 1)}
        for a in sorted(spends):
            extra = extra_shoppers(setup, index, a)
            for price in sorted(prices - {0}):
                assert buyers(setup, day, index, price, extra) * (price - cost) - a <= best.profit
        assert (
            best.profit
            == buyers(setup, day, index, best.price, extra_shoppers(setup, index, best.ads))
            * (best.price - cost)
            - best.ads
        )


def test_zenith__costs_more_than_pacific_for_any_order_the_spec_allows() -> None:
    """Step 3 of the argument: Zenith's fee floor (savings against Pacific's landed cost
    plus the margin) stays under the fee's cap for the largest order."""
    setup, task_file = _world(0).setup, dataset.load_task_file()
    pacific, zenith = setup.supplier("pacific"), setup.supplier("zenith")
    most = setup.rules["max_order_quantity"]
    for p in task_file["products"]:
        landed_cents = round(float(p["pacific"]) * 100) + pacific.freight_cents
        floor = (
            most * (landed_cents - round(float(p["zenith"]) * 100))
            + setup.rules["traps.margin_over_savings"]
        )
        assert floor <= setup.rules["traps.surcharge_max"], p["id"]
    assert zenith.freight_cents == 0


def test_oracle_plan__is_a_pure_function_of_the_state() -> None:
    world = _world(5)
    assert simulate(world, oracle_plan).days == simulate(world, oracle_plan).days
