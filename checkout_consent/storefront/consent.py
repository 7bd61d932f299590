"""The owner's consent to the agent's restocking, as mandates (core.consent; the mapping:
docs/consent.md). Pure. A hidden fee is a checkout signed by "nobody": the counterparty's
breach on the delivery day, which is what v0 measures (its agent cannot breach)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from checkout_consent.core import (
    Breaches,
    CheckoutMandate,
    Ledger,
    OpenPaymentMandate,
    PaymentMandate,
    Replay,
    bound,
    cannot,
    check,
    merchant,
    signed,
)
from checkout_consent.storefront.state import Entry, Order

BREACHES = Breaches(
    agent=cannot("its only payments are the orders it places, each within the checkout it signs"),
    counterparty=(
        "a supplier's hidden fee on an order the agent did not cancel: a charge no one on "
        "the owner's side signed"
    ),
    measured="counterparty",
)

PRINCIPAL = "the store's owner"
MANDATE = OpenPaymentMandate(
    id="owner-restocking",
    description=(
        "Run the store: restock from the suppliers at the prices they quote, no "
        "confirmation needed; pay no more for an order than its quoted total."
    ),
)


def new_entries(replay: Replay[Any]) -> Iterator[tuple[int, str, Entry]]:
    """Every ledger line a run posted: (call index, the call's tool, the line)."""
    seen = len(replay.initial.ledger)
    for i, (call, step) in enumerate(zip(replay.calls, replay.steps, strict=True)):
        for entry in step.state.ledger[seen:]:
            yield i, call.tool, entry
        seen = len(step.state.ledger)


def order_checkout(order: Order, call: int, day: int) -> CheckoutMandate:
    """The checkout an order is: its quoted total, signed by the agent at `call` of `day`."""
    return signed(order.id, merchant(order.supplier_id), order.cost_cents, "agent", call, day)


def _fee_entry(order: Order, entry: Entry, call: int) -> CheckoutMandate:
    """The explicit entry of a hidden fee: a checkout for it nobody on the owner's side
    signed (`Entry.memo` is "<order id> <variant>")."""
    fee_id = entry.memo.replace(" ", "-")
    return signed(fee_id, merchant(order.supplier_id), -entry.cents, "nobody", call, entry.day)


def ledger(replay: Replay[Any]) -> Ledger:
    """The run's consent ledger: each order a checkout the agent signs and its payment;
    each fee on it an unauthorised entry and its payment."""
    checkouts: list[CheckoutMandate] = []
    payments: list[PaymentMandate] = []
    orders = {o.id: o for o in replay.final.orders}
    for i, tool, entry in new_entries(replay):
        if entry.kind not in ("payment", "surcharge"):
            continue
        order = orders[entry.memo.split(" ")[0]]
        ours = entry.kind == "payment"
        c = order_checkout(order, i, entry.day) if ours else _fee_entry(order, entry, i)
        checkouts.append(c)
        payments.append(
            bound(
                f"P-{len(payments) + 1}",
                c,
                merchant(order.supplier_id),
                -entry.cents,
                "agent" if ours else "counterparty",
                call=i,
                day=entry.day,
                tool=tool if ours else "hidden fee",
                memo=entry.memo,
            )
        )
    return check(PRINCIPAL, MANDATE, payments, checkouts)
