"""Spec + seed -> the initial storefront State. The only place randomness is drawn.
(`dataset.world` resolves a Scenario reference to its spec and calls this.)"""

from __future__ import annotations

from typing import Any

from checkout_consent.core.money import parse_dollars
from checkout_consent.core.rng import Stream, stream
from checkout_consent.storefront.state import Product, Setup, State, Supplier, TrapPlan

MAX_ORDERS = 60  # order lines per run: enough for any sane play


def _products(spec: dict[str, Any]) -> tuple[Product, ...]:
    return tuple(Product(p["id"], p["name"], parse_dollars(p["market_value"], field=p["id"]))
                 for p in spec["products"])


def _suppliers(spec: dict[str, Any]) -> tuple[Supplier, ...]:
    return tuple(Supplier(id=s["id"], name=s["name"], lead_days=int(s["lead_days"]),
                          honest=bool(s["honest"]), prices_cents=tuple(
                              (pid, parse_dollars(v, field=f"{s['id']}.{pid}"))
                              for pid, v in s["prices"].items()))
                 for s in spec["suppliers"])


def _shoppers(rng: Stream, spec: dict[str, Any], products: tuple[Product, ...]) -> tuple:
    """Per day, per product: a seeded number of shoppers' valuations, each 0..market value
    cents (drawn in that order: the count, then its valuations)."""
    lo, hi = int(spec["demand"]["shoppers_min"]), int(spec["demand"]["shoppers_max"])
    return tuple(tuple(tuple(rng.below(p.market_value_cents + 1)
                             for _ in range(rng.randint(lo, hi))) for p in products)
                 for _ in range(int(spec["days"])))


def trap_plan(setup: Setup, k: int) -> TrapPlan:
    """The hidden fee the k-th order from a dishonest supplier carries (k from 0).

    Drawn from its own stream, named by k, so a run draws only the plans it uses and each
    plan is the same whatever else the run did. One draw gives the variant and the base."""
    lo, hi = setup.surcharge_min_cents // 100, setup.surcharge_max_cents // 100
    rng = stream(setup.seed, "storefront", setup.scenario, f"trap-{k}")
    variant, base = divmod(rng.below(len(setup.variants) * (hi - lo + 1)), hi - lo + 1)
    return TrapPlan(setup.variants[variant], (lo + base) * 100)


def generate(spec: dict[str, Any], seed: int) -> State:
    name = str(spec["scenario"])
    products = _products(spec)
    traps = spec["traps"]
    setup = Setup(
        scenario=name,
        seed=seed,
        store_name=str(spec["store_name"]),
        days=int(spec["days"]),
        starting_cash_cents=parse_dollars(spec["starting_cash"]),
        platform_fee_cents=parse_dollars(spec["platform_fee_per_day"]),
        max_order_quantity=int(spec["max_order_quantity"]),
        cancel_window_days=int(spec["cancel_window_days"]),
        products=products,
        suppliers=_suppliers(spec),
        shoppers=_shoppers(stream(seed, "storefront", name, "shoppers"), spec, products),
        variants=tuple(traps["variants"]),
        surcharge_min_cents=parse_dollars(traps["surcharge_min"]),
        surcharge_max_cents=parse_dollars(traps["surcharge_max"]),
        margin_over_savings_cents=parse_dollars(traps["margin_over_savings"]),
    )
    return State(setup=setup)
