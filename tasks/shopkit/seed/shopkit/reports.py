"""Reports: invoices, overdue orders and a stock summary."""

import datetime

from shopkit import db, orders
from shopkit.money import fmt


def is_overdue(order, today):
    """An unpaid order is overdue once its due date has passed."""
    if order["paid"]:
        return False
    due = datetime.date.fromisoformat(order["due"])
    # PLANTED BUG (T2): an order due today is not overdue yet.
    return due <= today


def overdue(today):
    """The ids of every overdue order on `today`."""
    return [o["id"] for o in db.orders() if is_overdue(o, today)]


def invoice(order_id):
    """The invoice of one order, as text."""
    order = db.order(order_id)
    lines = [f"Invoice {order['id']} for {order['customer']}"]
    for sku, name, qty, amount in orders.line_items(order):
        lines.append(f"  {qty} x {name} ({sku}): {fmt(amount)}")
    lines.append(f"Subtotal: {fmt(orders.subtotal(order))}")
    for rate in order.get("discounts", []):
        lines.append(f"Discount: {rate}%")
    lines.append(f"Total: {fmt(orders.total(order))}")
    return "\n".join(lines)


def stock_report():
    """(sku, on hand, reserved, available) for every product."""
    rows = []
    for sku, item in sorted(db.products().items()):
        held = db.reserved(sku)
        rows.append((sku, item["stock"], held, item["stock"] - held))
    return rows
