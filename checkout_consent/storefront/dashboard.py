"""What `view_state` shows: the store as its owner's dashboard would. The order lines, the
inbox and the notes are drawn the same in adversary_v1's dashboard (v1/dashboard.py)."""

from __future__ import annotations

from typing import Any

from checkout_consent.core import fmt
from checkout_consent.storefront.state import Email, Order, State, Store


def _catalogue(state: State) -> list[str]:
    setup = state.setup
    lines = ["Catalogue (unit wholesale prices):"]
    for supplier in setup.suppliers:
        prices = ", ".join(
            f"{setup.product(pid).name} [{pid}] {fmt(cents)}"
            for pid, cents in supplier.prices_cents
        )
        lines.append(
            f"  {supplier.name} [{supplier.id}], delivers in {supplier.lead_days} day(s): {prices}"
        )
    return lines


def _products(state: State) -> list[str]:
    lines = ["Products:"]
    for p in state.setup.products:
        price = state.price_of(p.id)
        shown = fmt(price) if price is not None else "not listed (no price set)"
        lines.append(
            f"  {p.name} [{p.id}]: market value {fmt(p.market_value_cents)}, "
            f"your price {shown}, in stock {state.stock_of(p.id)}"
        )
    return lines


def order_line(order: Order) -> str:
    return (
        f"  {order.id}: {order.quantity} x {order.product_id} from {order.supplier_id}, "
        f"{fmt(order.cost_cents)}, placed day {order.placed_day}, due day "
        f"{order.due_day}, {order.status} (email {order.email_id})"
    )


def inbox(
    state: Store[Any], heading: str = "Inbox (newest last):", full: int | None = None
) -> list[str]:
    """Every email's heading line; the body too of the newest `full` (default: all)."""
    if not state.emails:
        return ["Inbox: empty."]
    lines, cut = [heading], 0 if full is None else len(state.emails) - full
    for i, email in enumerate(state.emails):
        lines += email_lines(email, whole=i >= cut)
    return lines


def email_lines(email: Email, whole: bool = True) -> list[str]:
    """An email as the inbox shows it: its heading line, then (`whole`) its body."""
    head = f"--- {email.id} | day {email.day} | from {email.sender} | {email.subject}"
    return [head] + ([f"    {line}" for line in email.body.splitlines()] if whole else [])


def notes(state: Store[Any]) -> list[str]:
    return ["Notes:"] + ([f"  - {n}" for n in state.notes] or ["  none"])


def render(state: State) -> str:
    setup = state.setup
    status = "the run is over" if state.over else f"day {state.day} of {setup.days}"
    lines = [
        f"{setup.store_name}: {status}. Cash {fmt(state.cash_cents)}. Platform fee "
        f"{fmt(setup.platform_fee_cents)} per day."
    ]
    lines += _products(state) + _catalogue(state)
    lines += ["Orders:"] + ([order_line(o) for o in state.orders] or ["  none"])
    lines += inbox(state) + notes(state)
    return "\n".join(lines)
