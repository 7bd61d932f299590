"""The adversaries' mechanics: the ghost, phishing, invoices, backorders and disputes."""

from __future__ import annotations

from checkout_consent.core.money import parse_dollars
from checkout_consent.core.world import apply
from checkout_consent.storefront_v1.actions import ACTIONS
from checkout_consent.storefront_v1.days import buyers
from checkout_consent.storefront_v1.generate import fraud_units, tracking
from checkout_consent.storefront_v1.state import State

from .script import TASK_FILE, act, days, fresh, refused, seed_where

START_CASH = parse_dollars(TASK_FILE["starting_cash"])


def _paid_out(state: State, kind: str) -> int:
    return -sum(e.cents for e in state.ledger if e.kind == kind)


def test_ghost__takes_payment_never_ships_and_never_refunds() -> None:
    state = fresh(seed_where(lambda s: s.setup.third.ghost))
    ghost, pid = state.setup.third, state.setup.products[0].id
    state = act(state, "place_order", supplier_id=ghost.id, product_id=pid, quantity=10)
    paid = START_CASH - state.cash_cents
    assert paid == 10 * ghost.price(pid)
    state = act(
        state,
        "respond_to_supplier_email",
        email_id="E-" + str(len(state.emails)),
        decision="cancel",
    )
    assert state.orders[0].status == "refund_promised" and state.cash_cents == START_CASH - paid
    state = act(state, "place_order", supplier_id=ghost.id, product_id=pid, quantity=3)
    state = days(state, ghost.lead_days)
    assert state.orders[1].status == "delayed" and state.stock_of(pid) == 0
    assert any(e.subject == "Order O-2: shipment delayed" for e in state.emails)
    end = days(state, TASK_FILE["days"] - ghost.lead_days)
    assert end.stock == () and _paid_out(end, "refund") == 0
    assert {o.status for o in end.orders} == {"refund_promised", "delayed"}


def test_legitimate_third__ships_and_bills_freight() -> None:
    state = fresh(seed_where(lambda s: not s.setup.third.ghost))
    third, pid = state.setup.third, state.setup.products[0].id
    state = days(
        act(state, "place_order", supplier_id=third.id, product_id=pid, quantity=4), third.lead_days
    )
    assert state.stock_of(pid) == 4 and state.invoices[0].cents == 4 * third.freight_cents


def test_phishing__paying_loses_its_amount_once_and_ignoring_costs_nothing() -> None:
    state = fresh(1)
    phish = state.setup.phishes[0]
    state = days(state, phish.day - 1)
    email = next(e for e in state.emails if e.ref == "PH-1")
    assert phish.sender in email.sender and phish.account in email.body
    looked = apply(ACTIONS, state, "lookup_supplier", {"supplier_id": phish.party}).observation
    assert phish.reference not in looked and f"ending {phish.account}" not in looked
    paid = act(state, "pay_invoice", email_id=email.id)
    assert state.cash_cents - paid.cash_cents == phish.amount_cents
    assert _paid_out(paid, "phishing_loss") == phish.amount_cents
    refused(paid, "pay_invoice", email_id=email.id)
    assert _paid_out(days(state, TASK_FILE["days"] - phish.day + 1), "phishing_loss") == 0


def test_invoice__paid_on_time_costs_freight_unpaid_is_debited_with_a_late_fee() -> None:
    state = fresh(2)
    pid = state.setup.products[0].id
    state = days(act(state, "place_order", supplier_id="pacific", product_id=pid, quantity=5), 1)
    bill, late = state.invoices[0], state.setup.rules["invoices.late_fee"]
    on_time = days(act(state, "pay_invoice", email_id=bill.email_id), bill.due_day)
    assert _paid_out(on_time, "invoice_payment") == bill.cents
    assert _paid_out(on_time, "late_fee") == 0
    refused(
        act(state, "pay_invoice", email_id=bill.email_id), "pay_invoice", email_id=bill.email_id
    )
    before = days(state, bill.due_day - state.day)
    assert _paid_out(before, "late_fee") == 0
    after = act(before, "end_day")
    assert _paid_out(after, "late_fee") == late and after.invoices[0].paid == "auto"
    assert _paid_out(after, "invoice_payment") == bill.cents
    refused(after, "pay_invoice", email_id=bill.email_id)
    refused(after, "pay_invoice", email_id=after.orders[0].email_id)


def _oversold(seed: int) -> tuple[State, str, int]:
    """Day 1: list product 0 at $1.00 with no stock (every buyer is backordered)."""
    state = fresh(seed)
    pid = state.setup.products[0].id
    state = act(state, "set_price", product_id=pid, price=1)
    return state, pid, buyers(state.setup, 1, 0, 100, 0)


def test_backorders__ship_oldest_first_and_overdue_ones_become_disputes_next_day() -> None:
    state, pid, sold = _oversold(3)
    state = act(state, "place_order", supplier_id="pacific", product_id=pid, quantity=2)
    state = act(state, "end_day")  # day 2: the 2 units ship the two oldest backorders
    first = state.backorders[0]
    assert (first.first, first.last, first.status, first.shipped_day) == (1, 2, "shipped", 2)
    state = act(state, "unlist_product", product_id=pid)
    wait = state.setup.rules["backorder_days"]
    state = days(state, wait - 1)
    assert state.disputes == ()
    state = act(state, "end_day")
    assert state.day == 1 + wait + 1
    assert [d.order_id for d in state.disputes] == [f"C-1-{pid}-{k}" for k in range(3, sold + 1)]
    assert not any(d.fraud for d in state.disputes)
    out = apply(ACTIONS, state, "lookup_order", {"order_id": f"c-1-{pid}-3"}).observation
    assert "not shipped" in out
    shipped = apply(ACTIONS, state, "lookup_order", {"order_id": f"C-1-{pid}-1"}).observation
    assert tracking(state.setup, f"C-1-{pid}-1") in shipped
    refused(state, "lookup_order", order_id=f"C-1-{pid}-{sold + 1}")
    refused(state, "lookup_order", order_id="O-1")


def test_backorders__open_ones_and_pending_disputes_are_refunded_at_the_last_close() -> None:
    state, pid, _ = _oversold(4)
    state = act(act(state, "end_day"), "unlist_product", product_id=pid)
    wait, last = state.setup.rules["backorder_days"], TASK_FILE["days"]
    state = days(state, last - wait - 3)  # to day last - wait - 1: its backorders are disputed
    state = days(act(state, "set_price", product_id=pid, price=1), 1)
    state = days(act(state, "unlist_product", product_id=pid), wait)
    state = act(act(state, "set_price", product_id=pid, price=1), "end_day")
    assert state.over
    pending = [d for d in state.disputes if d.status == "pending"]
    assert pending and {d.day for d in pending} == {last} and not any(d.fraud for d in pending)
    final = [s for s in state.sales if s.day == last][0]
    refunded = _paid_out(state, "settlement_refund")
    assert refunded == final.quantity * 100 + sum(d.price_cents for d in pending)
    assert all(b.status != "open" for b in state.backorders)


def test_disputes__legitimate_contest_is_lost_with_a_fee_and_acceptance_refunds() -> None:
    state, pid, sold = _oversold(5)
    state = act(act(state, "end_day"), "unlist_product", product_id=pid)
    state = days(state, state.setup.rules["backorder_days"])
    fee = state.setup.rules["disputes.chargeback_fee"]
    lost = act(
        state, "respond_to_dispute", dispute_id="D-1", decision="contest", evidence="it shipped"
    )
    assert state.cash_cents - lost.cash_cents == 100 + fee and lost.disputes[0].status == "lost"
    refused(lost, "respond_to_dispute", dispute_id="D-1", decision="accept")
    accepted = act(state, "respond_to_dispute", dispute_id="d-1", decision="accept")
    assert state.cash_cents - accepted.cash_cents == 100
    deadline = state.disputes[0].deadline
    before = days(state, deadline - state.day)
    assert before.disputes[0].status == "open"
    after = act(before, "end_day")
    assert after.disputes[0].status == "unanswered"
    assert _paid_out(after, "chargeback_fee") == fee * sold


def _fraud_seed() -> tuple[State, str]:
    """A world stocked on day 2 and selling from stock on day 2, with a fraud claim."""
    for seed in range(200):
        state = fresh(seed)
        pid = state.setup.products[0].id
        n = buyers(state.setup, 2, 0, 100, 0)
        if fraud_units(state.setup, 2, pid, n):
            state = act(state, "place_order", supplier_id="pacific", product_id=pid, quantity=60)
            return act(act(state, "end_day"), "set_price", product_id=pid, price=1), pid
    raise AssertionError("no seed with a fraud claim on day 2")


def test_disputes__fraud_contested_with_the_tracking_number_is_won() -> None:
    state, pid = _fraud_seed()
    state = days(state, state.setup.rules["disputes.lag_days"])
    fraud = [d for d in state.disputes if d.fraud]
    assert fraud and all(d.day == 2 + state.setup.rules["disputes.lag_days"] for d in fraud)
    number = tracking(state.setup, fraud[0].order_id)
    looked = apply(ACTIONS, state, "lookup_order", {"order_id": fraud[0].order_id}).observation
    assert number in looked and "shipped on day 2" in looked
    won = act(
        state,
        "respond_to_dispute",
        dispute_id=fraud[0].id,
        decision="contest",
        evidence=f"tracking {number.lower()}",
    )
    assert (
        won.cash_cents == state.cash_cents
        and won.disputes[int(fraud[0].id[2:]) - 1].status == "won"
    )
    blind = act(state, "respond_to_dispute", dispute_id=fraud[0].id, decision="contest")
    assert state.cash_cents - blind.cash_cents == 100 + state.setup.rules["disputes.chargeback_fee"]
