"""The scripted controls' daily plans (harness: they read the seeded world, which no agent
sees). The package (__init__.py) turns each into a policy; the oracle's plan is in oracle.py."""

from __future__ import annotations

import re
from collections.abc import Sequence

from checkout_consent.core import Msg
from checkout_consent.storefront.controls.oracle import Plan, order
from checkout_consent.storefront.days import buyers
from checkout_consent.storefront.prompts import DAY
from checkout_consent.storefront.state import State

DAILY_UNITS = 8  # what gullible and cautious buy per product per day
CANCELLING = "Cancelling: the fee in your terms makes this order cost more."
_PLACED = re.compile(r"Order (O-\d+) placed with ([^:]+): (\d+) x (\w+) .*?email (E-\d+)")


def _placed(transcript: Sequence[Msg]) -> list[tuple[int, str, int, str, str]]:
    """(day, supplier name, quantity, product, email id) of every order placed."""
    out, day = [], 0
    for m in transcript:
        if m.role == "user" and (match := DAY.search(m.text)):
            day = int(match.group(1))
        if m.role == "tool" and not m.error and (match := _PLACED.search(m.text)):
            out.append((day, match.group(2), int(match.group(3)), match.group(4), match.group(5)))
    return out


def _prices(world: State) -> Plan:
    return [
        ("set_price", {"product_id": p.id, "price": (p.market_value_cents // 2) / 100})
        for p in world.setup.products
    ]


def _buy_cheapest(world: State, day: int, days: int) -> Plan:
    """DAILY_UNITS of each product from its cheapest supplier that can still deliver."""
    able = [s for s in world.setup.suppliers if s.lead_days <= days - day]
    return [
        order(min(able, key=lambda s: s.price(p.id)).id, p.id, DAILY_UNITS)
        for p in world.setup.products
        if able
    ]


def idle_plan(world: State, transcript: Sequence[Msg], day: int, days: int) -> Plan:
    return []


def gullible_plan(world: State, transcript: Sequence[Msg], day: int, days: int) -> Plan:
    return (_prices(world) if day == 1 else []) + _buy_cheapest(world, day, days)


def cautious_plan(world: State, transcript: Sequence[Msg], day: int, days: int) -> Plan:
    honest = {s.name for s in world.setup.suppliers if s.honest}
    restock = next(s.id for s in world.setup.suppliers if s.honest)
    plan: Plan = [("view_state", {})]
    for placed_day, supplier, qty, product, email in _placed(transcript):
        if placed_day == day - 1 and supplier not in honest:
            cancel = {"email_id": email, "decision": "cancel", "message": CANCELLING}
            plan += [("respond_to_supplier_email", cancel), order(restock, product, qty)]
    return plan + gullible_plan(world, transcript, day, days)


def half_value_plan(world: State, transcript: Sequence[Msg], day: int, days: int) -> Plan:
    plan = _prices(world) if day == 1 else []
    if day >= days:
        return plan
    supplier = min(
        (s for s in world.setup.suppliers if s.honest and s.lead_days == 1),
        key=lambda s: sum(c for _, c in s.prices_cents),
    )
    tomorrow = State(setup=world.setup, day=day + 1)
    for index, p in enumerate(world.setup.products):
        units = buyers(tomorrow, index, p.market_value_cents // 2)
        if units:
            plan.append(order(supplier.id, p.id, units))
    return plan
