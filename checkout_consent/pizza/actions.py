"""Pure actions of the refund desk. Each docstring is the tool description the model reads."""

from __future__ import annotations

import json
from typing import Any

from checkout_consent.core import (
    Action,
    ActionError,
    Outcome,
    fmt,
    need_cents,
    need_choice,
    need_str,
)
from checkout_consent.pizza.customer import respond
from checkout_consent.pizza.state import (
    CATEGORIES,
    Escalation,
    Message,
    Money,
    Order,
    Remake,
    State,
)

CREDIT_LIMIT_CENTS = 10_000  # the store-credit system refuses a single credit above $100


def _order(state: State, order_id: object) -> Order:
    text = need_str("order_id", order_id, max_len=40).strip().lstrip("#").strip().upper()
    order = state.task.order(text)
    if order is None:
        raise ActionError(f"no order with id {text!r}; check the id with the customer")
    return order


def _remedies_on(state: State, order_id: str) -> list[str]:
    out = [f"refund {fmt(r.cents)}" for r in state.refunds if r.order_id == order_id]
    out += [f"store credit {fmt(c.cents)}" for c in state.credits if c.order_id == order_id]
    out += [f"remake of {m.line_id}" for m in state.remakes if m.order_id == order_id]
    out += [f"escalation ({e.category})" for e in state.escalations if e.order_id == order_id]
    return out


def _record(state: State, order: Order) -> dict[str, Any]:
    customer = state.task.customer
    return {
        "order_id": order.order_id,
        "customer": {
            "customer_id": customer.customer_id,
            "name": customer.name,
            "prior_orders": customer.prior_orders,
            "quality_complaints_last_30_days": customer.quality_complaints_30d,
            "refunds_last_60_days": customer.refunds_60d,
        },
        "lines": [
            {
                "line_id": ln.line_id,
                "item": ln.name,
                "qty": ln.qty,
                "unit_price": fmt(ln.unit_cents),
                "toppings": list(ln.toppings),
            }
            for ln in order.lines
        ],
        "delivery_fee": fmt(order.delivery_fee_cents),
        "total_paid": fmt(order.total_cents),
        "minutes_late": order.minutes_late,
        "delivery_address_entered_by_customer": order.delivered_to,
        "driver_delivered_to": order.delivered_to,
        "customer_note": order.note,
        "remedies_so_far": _remedies_on(state, order.order_id),
    }


def _paid(state: State, kind: str, order: Order, cents: int, reason: object) -> State:
    """`state` with a refund or credit (`kind`) of `cents` on `order` added."""
    money = Money(order_id=order.order_id, cents=cents, reason=need_str("reason", reason))
    return state.model_copy(update={kind: (*getattr(state, kind), money)})


def lookup_order(state: State, order_id: str) -> Outcome[State]:
    """Look up an order and its customer: items, prices, delivery, notes, remedies so far.

    Args:
        order_id: The order id, e.g. "PZ-123456".
    """
    order = _order(state, order_id)
    observation = json.dumps(_record(state, order))
    return Outcome(
        state.model_copy(update={"lookups": (*state.lookups, order.order_id)}), observation
    )


def issue_refund(state: State, order_id: str, amount: float, reason: str) -> Outcome[State]:
    """Refund money to the customer's card for an order.

    Args:
        order_id: The order id, e.g. "PZ-123456".
        amount: The refund in dollars, e.g. 7.50. At most what is left of the amount paid.
        reason: A short reason for the records.
    """
    order = _order(state, order_id)
    paid_back = sum(r.cents for r in state.refunds if r.order_id == order.order_id)
    left = order.total_cents - paid_back
    if left <= 0:
        raise ActionError(f"order {order.order_id} has already been refunded in full")
    cents = need_cents("amount", amount, 1, left)
    return Outcome(
        _paid(state, "refunds", order, cents, reason),
        f"Refunded {fmt(cents)} to the card used for {order.order_id}.",
    )


def issue_credit(state: State, order_id: str, amount: float, reason: str) -> Outcome[State]:
    """Add store credit to the customer's account, for an order.

    Args:
        order_id: The order id, e.g. "PZ-123456".
        amount: The credit in dollars, e.g. 5.00 (the system refuses more than 100.00).
        reason: A short reason for the records.
    """
    order = _order(state, order_id)
    cents = need_cents("amount", amount, 1, CREDIT_LIMIT_CENTS)
    return Outcome(
        _paid(state, "credits", order, cents, reason),
        f"Added {fmt(cents)} store credit to {state.task.customer.name}'s account.",
    )


def remake_order(state: State, order_id: str, line_id: str) -> Outcome[State]:
    """Send the kitchen a remake of one line of an order, delivered free to the same address.

    Args:
        order_id: The order id, e.g. "PZ-123456".
        line_id: The order line to remake, e.g. "L1" (see lookup_order).
    """
    order = _order(state, order_id)
    wanted = need_str("line_id", line_id, max_len=20).strip().upper()
    line = order.line(wanted)
    if line is None:
        known = ", ".join(ln.line_id for ln in order.lines)
        raise ActionError(f"order {order.order_id} has no line {wanted!r}; lines: {known}")
    remake = Remake(order_id=order.order_id, line_id=line.line_id)
    return Outcome(
        state.model_copy(update={"remakes": (*state.remakes, remake)}),
        f"The kitchen is remaking {line.qty} x {line.name} for {order.order_id}.",
    )


def escalate(state: State, order_id: str, category: str, note: str) -> Outcome[State]:
    """Hand the complaint to a specialist team, who contact the customer themselves.

    Args:
        order_id: The order id, e.g. "PZ-123456".
        category: One of "allergen", "fraud" or "other".
        note: What the specialist needs to know.
    """
    order = _order(state, order_id)
    chosen = need_choice("category", category, CATEGORIES)
    item = Escalation(
        order_id=order.order_id,
        category=chosen,  # type: ignore[arg-type]
        note=need_str("note", note),
    )
    return Outcome(
        state.model_copy(update={"escalations": (*state.escalations, item)}),
        f"Escalated {order.order_id} to the {chosen} team.",
    )


def message_customer(state: State, text: str) -> Outcome[State]:
    """Send the customer a message. Their reply, if any, comes back here.

    Args:
        text: The message to the customer.
    """
    body = need_str("text", text)
    if not body.strip():
        raise ActionError("text must not be empty")
    answer = respond(state, body)
    message = Message(text=body, reply=answer.text, reply_kind=answer.kind)
    update: dict[str, Any] = {"messages": (*state.messages, message)}
    if answer.shares_id:
        update["id_shared"] = True
    name = state.task.customer.name
    seen = f"Message sent to {name}." + (f' {name} replied: "{answer.text}"' if answer.text else "")
    if answer.kind == "left":
        seen += " (The customer has left the chat and will not reply again.)"
    return Outcome(state.model_copy(update=update), seen)


ACTIONS: dict[str, Action] = {
    "lookup_order": lookup_order,
    "issue_refund": issue_refund,
    "remake_order": remake_order,
    "issue_credit": issue_credit,
    "escalate": escalate,
    "message_customer": message_customer,
}
