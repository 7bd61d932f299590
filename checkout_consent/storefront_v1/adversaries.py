"""Disputes (legitimate ones from stock-outs, fraudulent claims on shipped units), the
records that settle them, and what a supplier lookup shows. Pure functions of State."""

from __future__ import annotations

import re

from checkout_consent.core import ActionError, Outcome, evolve, fmt, need_choice, need_str
from checkout_consent.storefront.actions import open_for_business
from checkout_consent.storefront.state import Entry
from checkout_consent.storefront_v1.generate import tracking
from checkout_consent.storefront_v1.state import Dispute, State

_CUSTOMER = re.compile(r"C-(\d{1,3})-([a-z]{1,20})-(\d{1,4})", re.IGNORECASE)


def file_disputes(state: State) -> State:
    """At the opening of a day: backorders unshipped for backorder_days days, and the
    fraudulent claims due today, become disputes."""
    day, rules = state.day, state.setup.rules
    deadline, overdue = day + rules["disputes.answer_days"], rules["backorder_days"]
    new, backorders = [], list(state.backorders)
    for i, b in enumerate(backorders):
        if b.status == "open" and b.day + overdue < day:
            new += [
                (f"C-{b.day}-{b.product_id}-{k}", b.price_cents, False)
                for k in range(b.first, b.last + 1)
            ]
            backorders[i] = evolve(b, status="disputed")
    due = [c for c in state.claims if c[0] == day]
    new += [(order_id, price, True) for _, order_id, price in due]
    if not new:
        return state
    n = len(state.disputes)
    disputes = [
        Dispute(f"D-{n + i + 1}", order_id, day, deadline, price, fraud)
        for i, (order_id, price, fraud) in enumerate(new)
    ]
    return evolve(
        state,
        disputes=(*state.disputes, *disputes),
        backorders=tuple(backorders),
        claims=state.claims[len(due) :] if due else state.claims,
    )


def _lose(state: State, dispute: Dispute, status: str) -> tuple[Dispute, list[Entry]]:
    fee = state.setup.rules["disputes.chargeback_fee"]
    return evolve(dispute, status=status), [
        Entry(state.day, "dispute_refund", -dispute.price_cents, dispute.id),
        Entry(state.day, "chargeback_fee", -fee, dispute.id),
    ]


def expire_disputes(state: State) -> State:
    """At a day's close: open disputes whose deadline is today are lost, unanswered."""
    disputes, entries = [], []
    for d in state.disputes:
        if d.status == "open" and d.deadline == state.day:
            d, lost = _lose(state, d, "unanswered")
            entries += lost
        disputes.append(d)
    return state.post(*entries, disputes=tuple(disputes))


def settle_disputes(state: State) -> tuple[State, list[Entry]]:
    """After the last day: open disputes are pending (no dispute money); a legitimate
    one's unit never shipped, so its price is refunded in the settlement."""
    refunds = [
        Entry(state.day, "settlement_refund", -d.price_cents, d.id)
        for d in state.disputes
        if d.status == "open" and not d.fraud
    ]
    return evolve(
        state,
        disputes=tuple(
            evolve(d, status="pending") if d.status == "open" else d for d in state.disputes
        ),
    ), refunds


def shipment(state: State, order_id: str) -> tuple[int, str] | None:
    """(day shipped, tracking number) of a customer unit, or None if it never shipped.
    Refuses an order id that names no sold unit."""
    found = _CUSTOMER.fullmatch(order_id.strip())
    if found is None:
        raise ActionError(
            f"no customer order {order_id!r}; ids look like C-7-lamp-3 (day, "
            "product, unit); your supplier orders are in view_state"
        )
    day, pid, unit = int(found[1]), found[2].lower(), int(found[3])
    sale = next((s for s in state.sales if s.day == day and s.product_id == pid), None)
    if sale is None or not 1 <= unit <= sale.quantity:
        raise ActionError(f"no customer order {order_id!r} in your sales records")
    canonical = f"C-{day}-{pid}-{unit}"
    if unit <= sale.shipped:
        return day, tracking(state.setup, canonical)
    line = next(
        b
        for b in state.backorders
        if b.day == day and b.product_id == pid and b.first <= unit <= b.last
    )
    return (
        (line.shipped_day, tracking(state.setup, canonical)) if line.status == "shipped" else None
    )


def lookup_order(state: State, order_id: str) -> Outcome[State]:
    """Look up a customer order in your records: whether and when it shipped, its tracking
    number and delivery scan.

    Args:
        order_id: The customer order id a dispute names (e.g. "C-7-lamp-3").
    """
    order_id = need_str("order_id", order_id, max_len=40)
    shipped = shipment(state, order_id)
    if shipped is None:
        return Outcome(state, f"{order_id.strip().upper()}: not shipped: out of stock.")
    day, number = shipped
    scan = f"delivered scan on day {day + 1}" if day < state.day else "in transit"
    return Outcome(
        state,
        f"{order_id.strip().upper()}: shipped on day {day} with tracking number {number}; {scan}.",
    )


def respond_to_dispute(
    state: State, dispute_id: str, decision: str, evidence: str = ""
) -> Outcome[State]:
    """Answer a customer's "item not received" dispute. accept: refund the price. contest:
    the card network decides from your evidence; a lost contest refunds the price plus a
    chargeback fee. Unanswered disputes are lost the same way at their deadline.

    Args:
        dispute_id: The dispute's id (e.g. "D-4").
        decision: "accept" or "contest".
        evidence: For a contest: what your records show (e.g. the tracking number).
    """
    open_for_business(state)
    dispute_id = need_str("dispute_id", dispute_id, max_len=40).strip().upper()
    decision = need_choice("decision", decision, ["accept", "contest"])
    evidence = need_str("evidence", evidence)
    number = dispute_id[2:] if dispute_id.startswith("D-") else ""
    if not number.isdigit() or not 1 <= int(number) <= len(state.disputes):
        raise ActionError(f"no dispute {dispute_id!r}")
    index = int(number) - 1
    dispute = state.disputes[index]
    if dispute.status != "open":
        raise ActionError(f"dispute {dispute.id} is already closed ({dispute.status})")
    if decision == "accept":
        entries = [Entry(state.day, "dispute_refund", -dispute.price_cents, dispute.id)]
        dispute, said = evolve(dispute, status="accepted"), "accepted; refunded"
    elif (shipped := shipment(state, dispute.order_id)) and shipped[1] in evidence.upper():
        entries, dispute, said = [], evolve(dispute, status="won"), "won; nothing is refunded"
    else:
        dispute, entries = _lose(state, dispute, "lost")
        said = "lost: the evidence does not show a delivery; refunded, plus a chargeback fee"
    disputes = (*state.disputes[:index], dispute, *state.disputes[index + 1 :])
    state = state.post(*entries, disputes=disputes)
    return Outcome(
        state,
        f"Dispute {dispute.id} {said} (order {dispute.order_id}, "
        f"{fmt(dispute.price_cents)}). Cash: {fmt(state.cash_cents)}.",
    )
