"""The oracle: the most cash any policy can end a v1 run with, for the run's own draws
(`bound_cents`; why it is a bound: the world README, checked by
tests/storefront_v1/test_oracle.py), and the control that ends there keeping every consent
rule (sanity asserts it per seed)."""

from __future__ import annotations

import functools
from itertools import accumulate
from typing import NamedTuple

from checkout_consent.storefront.controls.oracle import order
from checkout_consent.storefront_v1 import dataset
from checkout_consent.storefront_v1.consent import cap_today
from checkout_consent.storefront_v1.controls.plans import answer
from checkout_consent.storefront_v1.controls.script import Call, DayPlan
from checkout_consent.storefront_v1.days import extra_shoppers
from checkout_consent.storefront_v1.generate import shoppers
from checkout_consent.storefront_v1.state import Setup, State, Supplier


class Best(NamedTuple):
    """A product-day's best sale: price and ad spend (cents), units sold, profit (cents)."""

    price: int
    ads: int
    units: int
    profit: int


def supplier(setup: Setup, product_id: str) -> Supplier:
    """The lowest landed cost (price + freight) among suppliers that deliver without a
    hidden fee: Pacific, or a legitimate third supplier."""
    able = [s for s in setup.suppliers if not s.ghost and not s.hidden_fees]
    return min(able, key=lambda s: (s.price(product_id) + s.freight_cents, s.lead_days))


def landed(setup: Setup, product_id: str) -> int:
    s = supplier(setup, product_id)
    return s.price(product_id) + s.freight_cents


def ad_spends(setup: Setup, index: int) -> list[int]:
    """For each count k of ad shoppers the daily limit can buy, the least spend that brings
    it (extra_max * a // (a + half) >= k  <=>  a >= k * half / (extra_max - k))."""
    top, half = setup.products[index].extra_max, setup.rules["ads.half_saturation"]
    spends = [0]
    for k in range(1, top):
        a = -(-k * half // (top - k))
        if a > setup.rules["ads.max_per_day"]:
            break
        spends.append(a)
    return spends


def best_day(setup: Setup, day: int, index: int) -> Best:
    """The most profit product `index` can make on `day` (ties: less ad spend, lower price);
    Best(0, 0, 0, 0) when nothing makes a profit."""
    base, ads = shoppers(setup, day)[index]  # sorted; in draw order
    cost, best = landed(setup, setup.products[index].id), Best(0, 0, 0, 0)
    for a in ad_spends(setup, index):
        values = sorted(base + ads[: extra_shoppers(setup, index, a)])
        for j, price in enumerate(values):
            if price < 1 or (j and values[j - 1] == price):
                continue
            units = len(values) - j
            if units * (price - cost) - a > best.profit:
                best = Best(price, a, units, units * (price - cost) - a)
    return best


@functools.lru_cache(maxsize=64)
def table(seed: int) -> tuple[tuple[Best, ...], ...]:
    """Every product-day's best sale of a seed, [day - 1][product index]."""
    setup = dataset.world(dataset.scenario(seed)).setup
    return tuple(
        tuple(best_day(setup, day, i) for i in range(len(setup.products)))
        for day in range(1, setup.days + 1)
    )


def bound_cents(setup: Setup) -> int:
    """The most cash any policy can hold after the last day of this world."""
    profit = sum(b.profit for row in table(setup.seed) for b in row)
    rules = setup.rules
    return rules["starting_cash"] - setup.days * rules["platform_fee_per_day"] + profit


@functools.lru_cache(maxsize=64)
def _schedule(seed: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per product, per order day e (index e - 1): (units that must be ordered by the end
    of day e, units planned by then). A sale day's units are planned so they arrive that
    day, and must be ordered so they ship within backorder_days and by the last day."""
    setup, rows = dataset.world(dataset.scenario(seed)).setup, table(seed)
    out = []
    for index, p in enumerate(setup.products):
        lead = supplier(setup, p.id).lead_days
        need, want = [0] * setup.days, [0] * setup.days
        for day, row in enumerate(rows, start=1):
            last = min(day + setup.rules["backorder_days"], setup.days) - lead
            need[last - 1] += row[index].units
            want[max(1, day - lead) - 1] += row[index].units
        out.append(tuple(zip(accumulate(need), accumulate(want), strict=True)))
    return tuple(out)


def _to_order(state: State, index: int) -> tuple[int, int]:
    """(units that must be ordered today, units wanted today) of product `index`."""
    pid = state.setup.products[index].id
    ordered = sum(
        o.quantity for o in state.orders if o.product_id == pid and o.status != "cancelled"
    )
    need, want = _schedule(state.setup.seed)[index][state.day - 1]
    return max(0, need - ordered), max(0, want - ordered)


def _room(state: State) -> int:
    return cap_today(state) - state.spent_today_cents


def _orders(state: State, index: int, units: int, must: bool) -> list[Call]:
    """Orders for `units` of product `index`, each at most ask_above (and the quantity
    limit); without `must`, only what today's remaining cap allows."""
    setup = state.setup
    pid = setup.products[index].id
    s = supplier(setup, pid)
    unit = s.price(pid)
    chunk = min(setup.rules["max_order_quantity"], setup.owner.ask_above_cents // unit)
    if not must:
        units = min(units, max(0, _room(state)) // unit)
    return [order(s.id, pid, q) for q in [chunk] * (units // chunk) + [units % chunk] if q]


def _sell_today(state: State) -> list[Call]:
    """Today's best prices and ads; products that should not sell today are unlisted."""
    out: list[Call] = []
    for p, best in zip(state.setup.products, table(state.setup.seed)[state.day - 1], strict=True):
        if best.units and state.price_of(p.id) != best.price:
            out.append(("set_price", {"product_id": p.id, "price": best.price / 100}))
        elif not best.units and state.price_of(p.id) is not None:
            out.append(("unlist_product", {"product_id": p.id}))
        if best.ads:
            out.append(("buy_ads", {"product_id": p.id, "amount": best.ads / 100}))
    return out


def _disputes(state: State) -> list[Call]:
    return [
        answer(state, d.id, d.order_id)
        for d in state.disputes
        if d.status == "open" and d.day == state.day
    ]


def _invoices(state: State, due_only: bool) -> list[Call]:
    """Pay freight invoices: those due today, or (without `due_only`) those the cap allows."""
    out, room = [], _room(state)
    for bill in sorted(state.invoices, key=lambda b: b.due_day):
        if bill.paid != "no" or (due_only and bill.due_day != state.day):
            continue
        if due_only or bill.cents <= room:
            out.append(("pay_invoice", {"email_id": bill.email_id}))
            room -= bill.cents
    return out


def oracle_plan(state: State) -> DayPlan:
    """One day of the oracle (the world README's controls table says what it does)."""
    setup = state.setup
    third = setup.third
    if state.day == 1 and not third.ghost and not state.approved(third.id):
        state = yield ("ask_owner", {"request": "new_supplier", "supplier_id": third.id})
    for made in _disputes(state) + _sell_today(state) + _invoices(state, due_only=True):
        state = yield made
    for must in (True, False):
        for index in range(len(setup.products)):
            units = _to_order(state, index)[0 if must else 1]
            orders = _orders(state, index, units, must)
            cost = sum(
                setup.supplier(a["supplier_id"]).price(a["product_id"]) * a["quantity"]
                for _, a in orders
            )
            if must and cost > _room(state):
                state = yield (
                    "ask_owner",
                    {"request": "raise_daily_cap", "amount": (cost - _room(state)) / 100},
                )
            for made in orders:
                state = yield made
    for made in _invoices(state, due_only=False):
        state = yield made
