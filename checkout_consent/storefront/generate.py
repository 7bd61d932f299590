"""Spec + seed -> the initial storefront State: the only place randomness is drawn."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from checkout_consent.core import Draws, Stream, evolve, parse_dollars, stream
from checkout_consent.storefront.state import BASIS, Product, Setup, State, Supplier, TrapPlan

MAX_ORDERS = 60  # order lines per run: enough for any sane play


def _products(task_file: dict[str, Any]) -> tuple[Product, ...]:
    return tuple(
        Product(p["id"], p["name"], parse_dollars(p["market_value"], field=p["id"]))
        for p in task_file["products"]
    )


def _suppliers(task_file: dict[str, Any]) -> tuple[Supplier, ...]:
    return tuple(
        Supplier(
            id=s["id"],
            name=s["name"],
            lead_days=int(s["lead_days"]),
            honest=bool(s["honest"]),
            prices_cents=tuple(
                (pid, parse_dollars(v, field=f"{s['id']}.{pid}")) for pid, v in s["prices"].items()
            ),
        )
        for s in task_file["suppliers"]
    )


def _shoppers(rng: Stream, task_file: dict[str, Any], products: tuple[Product, ...]) -> tuple:
    """Per day, per product: a seeded number of shoppers' valuations, each 0..market value
    cents, sorted (drawn in that order: the count, then its valuations). The valuations
    come two per 64-bit draw (low 32 bits, then high; an odd count leaves the last high half
    unused), each by a multiply-shift (bias below top / 2**32, under 2e-6 here); every
    draw of the world is made at once and the multiply-shifts done together."""
    lo, hi, days = (
        int(task_file["demand"]["shoppers_min"]),
        int(task_file["demand"]["shoppers_max"]),
        int(task_file["days"]),
    )
    tops = [p.market_value_cents + 1 for p in products] * days
    draws = Draws(rng, len(tops) * (2 + hi // 2))  # enough, barring rejections
    cuts = [(n, *draws.span((n + 1) // 2)) for n in (draws.randint(lo, hi) for _ in tops)]
    top = np.zeros(len(draws.array), dtype=np.uint64)
    for (_, start, end), value in zip(cuts, tops, strict=True):
        top[start:end] = value
    low = (((draws.array & _LOW) * top) >> _HALF).tolist()
    high = (((draws.array >> _HALF) * top) >> _HALF).tolist()
    valued = [tuple(sorted(low[a:b] + high[a : a + n // 2])) for n, a, b in cuts]
    return tuple(tuple(valued[i : i + len(products)]) for i in range(0, len(valued), len(products)))


_LOW, _HALF = np.array(0xFFFFFFFF, dtype=np.uint64), np.array(32, dtype=np.uint64)  # 0-d: faster


def reference_total_cents(setup: Setup) -> int:
    """The calibration order's total: reference quantity x mean dishonest price."""
    prices = [c for s in setup.suppliers if not s.honest for _, c in s.prices_cents]
    return setup.fee_reference_quantity * sum(prices) // len(prices)


def draw_trap(
    rng: Stream, variants: Sequence[str], fee_range: tuple[int, int], quantity: int, total: int
) -> TrapPlan:
    """A trap's variant and rate, from its own stream: the fee on the reference order
    (`quantity` units costing `total`) in the variant's basis (both storefront worlds)."""
    variant = variants[rng.below(len(variants))]
    at_reference = rng.randint(*fee_range)
    if BASIS[variant] == "per_unit":
        return TrapPlan(variant, round(at_reference / quantity))
    if BASIS[variant] == "share":
        return TrapPlan(variant, round(at_reference * 10_000 / total))
    return TrapPlan(variant, at_reference)


def fee_amount(plan: TrapPlan, quantity: int, total_cents: int, bounds: tuple[int, ...]) -> int:
    """An order's fee: its mechanism's amount, at least `floor`, within `least`..`most`."""
    basis, (floor, least, most) = BASIS[plan.variant], bounds  # floor: savings + margin
    amount = (
        plan.rate * quantity
        if basis == "per_unit"
        else total_cents * plan.rate // 10_000
        if basis == "share"
        else plan.rate
    )
    return min(max(amount, floor, least), most)


def trap_plan(setup: Setup, k: int) -> TrapPlan:
    """The hidden fee the k-th order from a dishonest supplier carries (k from 0), drawn
    from its own stream, named by k (the same whatever else the run did)."""
    rng = stream(setup.seed, "storefront", setup.scenario, f"trap-{k}")
    ref = setup.fee_reference_quantity, reference_total_cents(setup)
    return draw_trap(rng, setup.variants, setup.fee_at_reference_cents, *ref)


def fee_cents(
    setup: Setup, plan: TrapPlan, quantity: int, total_cents: int, savings_cents: int
) -> int:
    """The fee an order carries, within the setup's bounds."""
    floor = savings_cents + setup.margin_over_savings_cents
    bounds = floor, setup.surcharge_min_cents, setup.surcharge_max_cents
    return fee_amount(plan, quantity, total_cents, bounds)


_RULES: dict[int, tuple[dict[str, Any], Setup]] = {}  # id(spec) -> (spec, its rules)


def _rules(task_file: dict[str, Any]) -> Setup:
    """The spec's unseeded Setup, parsed once per spec object (specs are never mutated)."""
    if (hit := _RULES.get(id(task_file))) is not None and hit[0] is task_file:
        return hit[1]
    traps, money = task_file["traps"], parse_dollars
    rules = Setup(
        scenario=str(task_file["scenario"]),
        seed=-1,
        store_name=str(task_file["store_name"]),
        days=int(task_file["days"]),
        starting_cash_cents=money(task_file["starting_cash"]),
        platform_fee_cents=money(task_file["platform_fee_per_day"]),
        max_order_quantity=int(task_file["max_order_quantity"]),
        cancel_window_days=int(task_file["cancel_window_days"]),
        products=_products(task_file),
        suppliers=_suppliers(task_file),
        shoppers=(),
        variants=tuple(traps["variants"]),
        fee_reference_quantity=int(traps["reference_quantity"]),
        fee_at_reference_cents=(
            money(traps["fee_at_reference"][0]),
            money(traps["fee_at_reference"][1]),
        ),
        surcharge_min_cents=money(traps["surcharge_min"]),
        surcharge_max_cents=money(traps["surcharge_max"]),
        margin_over_savings_cents=money(traps["margin_over_savings"]),
    )
    _RULES[id(task_file)] = (task_file, rules)
    return rules


def generate(task_file: dict[str, Any], seed: int) -> State:
    rules = _rules(task_file)
    rng = stream(seed, "storefront", rules.scenario, "shoppers")
    return State(setup=evolve(rules, seed=seed, shoppers=_shoppers(rng, task_file, rules.products)))
