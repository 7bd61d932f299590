"""The passage of time: closing a day (sales, the platform fee) and opening the next
(deliveries, hidden fees charged). Pure functions of State."""

from __future__ import annotations

from bisect import bisect_left

from checkout_consent.core import fmt
from checkout_consent.storefront.emails import delivery_notice
from checkout_consent.storefront.state import Email, Entry, Order, Sale, State


def buyers(state: State, product_index: int, price_cents: int) -> int:
    """Shoppers today who value the product at or above the price (valuations are sorted)."""
    shoppers = state.setup.shoppers[state.day - 1][product_index]
    return len(shoppers) - bisect_left(shoppers, price_cents)


def _sell(state: State) -> tuple[dict[str, int], list[Sale], list[Entry]]:
    """Today's sales from stock on hand at the listed prices: (stock, sales, revenue)."""
    stock, prices, sales, entries = dict(state.stock), dict(state.prices), list(state.sales), []
    for index, product in enumerate(state.setup.products):
        price = prices.get(product.id)
        if price is None:
            continue
        sold = min(stock.get(product.id, 0), buyers(state, index, price))
        if sold:
            stock[product.id] -= sold
            sales.append(Sale(state.day, product.id, sold, price, sold))
            entries.append(Entry(state.day, "revenue", sold * price, f"{sold} x {product.id}"))
    return stock, sales, entries


def _deliver(state: State, order: Order, email_id: str) -> tuple[Order, list[Entry], Email]:
    setup = state.setup
    supplier = setup.supplier(order.supplier_id)
    trap, entries = order.trap, list[Entry]()
    if trap is not None:
        entries.append(
            Entry(state.day, "surcharge", -trap.surcharge_cents, f"{order.id} {trap.variant}")
        )
    subject, body = delivery_notice(setup, supplier, order)
    email = Email(email_id, state.day, supplier.name, subject, body)
    return order._replace(status="delivered"), entries, email


def _open(state: State) -> State:
    """Deliveries due at the start of the (new) current day (the same state if none)."""
    stock, orders, emails, entries = dict(state.stock), list(state.orders), list(state.emails), []
    for i, order in enumerate(state.orders):
        if order.status == "pending" and order.due_day == state.day:
            orders[i], charged, email = _deliver(state, order, f"E-{len(emails) + 1}")
            entries.extend(charged)
            emails.append(email)
            stock[order.product_id] = stock.get(order.product_id, 0) + order.quantity
    return (
        state
        if len(emails) == len(state.emails)
        else state.post(
            *entries, orders=tuple(orders), emails=tuple(emails), stock=tuple(sorted(stock.items()))
        )
    )


def close_day(state: State) -> State:
    """End the current day: sell, pay the platform fee, then open the next day (or end)."""
    stock, sales, entries = _sell(state)
    entries.append(
        Entry(state.day, "platform_fee", -state.setup.platform_fee_cents, "platform fee")
    )
    last = state.day >= state.setup.days
    state = state.post(
        *entries,
        stock=tuple(sorted(stock.items())),
        sales=tuple(sales),
        day_end_cash=(*state.day_end_cash, state.cash_cents + sum(e.cents for e in entries)),
        over=last,
        day=state.day if last else state.day + 1,
    )
    return state if last else _open(state)


def day_summary(state: State, day: int) -> str:
    """What happened in the closing of `day`: sales and fees."""
    lines = [f"Day {day} closed."]
    sales = [s for s in state.sales if s.day == day]
    for sale in sales:
        name = state.setup.product(sale.product_id).name
        lines.append(f"  Sold {sale.quantity} x {name} at {fmt(sale.price_cents)}.")
    if not sales:
        lines.append("  No sales.")
    lines.append(f"  Platform fee: {fmt(state.setup.platform_fee_cents)}.")
    lines.append(f"  Cash at close: {fmt(state.day_end_cash[day - 1])}.")
    return "\n".join(lines)


def morning_report(state: State) -> str:
    """The news at the start of the current day: deliveries, charges, new emails."""
    lines = [f"Good morning. It is day {state.day} of {state.setup.days}."]
    for entry in (e for e in state.ledger if e.day == state.day and e.kind == "surcharge"):
        lines.append(f"  Charged on delivery: {fmt(-entry.cents)} ({entry.memo.split()[0]}).")
    new = [e for e in state.emails if e.day == state.day]
    for email in new:
        lines.append(f"  New email {email.id} from {email.sender}: {email.subject}")
    if not new:
        lines.append("  No new email.")
    lines.append(f"  Cash: {fmt(state.cash_cents)}.")
    return "\n".join(lines)
