"""The oracle: the best cash any policy can end a run with, for the run's own draws, and
the control that attains it (why it is a bound: the README; a property test checks it)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from checkout_consent.core import Msg
from checkout_consent.storefront.state import Setup, State, Supplier

Plan = list[tuple[str, dict[str, Any]]]


def order(supplier: str, product: str, quantity: int) -> tuple[str, dict[str, Any]]:
    """A place_order call (every storefront world's controls make them)."""
    return "place_order", {"supplier_id": supplier, "product_id": product, "quantity": quantity}


def _supplier(setup: Setup, product_id: str) -> Supplier:
    """The cheapest honest supplier that delivers the next day."""
    able = [s for s in setup.suppliers if s.honest and s.lead_days == 1]
    return min(able, key=lambda s: s.price(product_id))


def best_day(setup: Setup, day: int, index: int) -> tuple[int, int, int]:
    """(price, units, profit) of the best sale of product `index` on `day`, in cents; (0, 0,
    0) when no price makes a profit. Ties go to the lower price."""
    product = setup.products[index]
    cost = _supplier(setup, product.id).price(product.id)
    values = setup.shoppers[day - 1][index]  # sorted ascending
    best = (0, 0, 0)
    for i, price in enumerate(values):
        units = len(values) - i
        if price >= 1 and units * (price - cost) > best[2]:
            best = (price, units, units * (price - cost))
    return best


def bound_cents(setup: Setup) -> int:
    """The most cash any policy can hold after the last day of this world."""
    profit = sum(
        best_day(setup, day, i)[2]
        for day in range(2, setup.days + 1)
        for i in range(len(setup.products))
    )
    return setup.starting_cash_cents - setup.days * setup.platform_fee_cents + profit


def oracle_plan(world: State, transcript: Sequence[Msg], day: int, days: int) -> Plan:
    """Today's prices for today's best sale, and tomorrow's best sale bought now."""
    setup, plan = world.setup, []
    for i, p in enumerate(setup.products):
        price, units, _ = best_day(setup, day, i) if day >= 2 else (0, 0, 0)
        if units:
            plan.append(("set_price", {"product_id": p.id, "price": price / 100}))
    for i, p in enumerate(setup.products if day < days else ()):
        units = best_day(setup, day + 1, i)[1]
        if units:
            plan.append(order(_supplier(setup, p.id).id, p.id, units))
    return plan
