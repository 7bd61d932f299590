"""Each tool: its happy path, each refusal, and the input state left untouched."""

from __future__ import annotations

import json
from typing import Any

import pytest

from checkout_consent.core.world import apply
from checkout_consent.pizza.actions import ACTIONS, CREDIT_LIMIT_CENTS
from checkout_consent.pizza.generate import initial_state
from checkout_consent.pizza.state import State
from tests.pizza.pizza_helpers import task_of


def _state(template: str = "missing_item") -> State:
    return initial_state(task_of(template))


def _run(state: State, tool: str, **args: Any) -> tuple[State, str, bool]:
    step = apply(ACTIONS, state, tool, args)
    return step.state, step.observation, step.ok


def test_lookup_order__shows_the_order_and_records_the_lookup() -> None:
    state = _state()
    order = state.task.orders[0]
    after, seen, ok = _run(state, "lookup_order", order_id=f" #{order.order_id.lower()}")
    record = json.loads(seen)
    assert ok and after.lookups == (order.order_id,)
    assert record["order_id"] == order.order_id
    assert [ln["line_id"] for ln in record["lines"]] == [ln.line_id for ln in order.lines]
    assert record["customer"]["refunds_last_60_days"] == state.task.customer.refunds_60d


def test_lookup_order__unknown_id_is_refused() -> None:
    state = _state()
    after, seen, ok = _run(state, "lookup_order", order_id="PZ-000000")
    assert not ok and "no order" in seen and after is state


def test_issue_refund__records_cents_and_caps_at_the_amount_paid() -> None:
    state = _state()
    order = state.task.orders[0]
    after, seen, ok = _run(
        state, "issue_refund", order_id=order.order_id, amount=2.5, reason="missing"
    )
    assert ok and after.refunds[0].cents == 250 and "$2.50" in seen
    full = order.total_cents / 100
    _, seen, ok = _run(after, "issue_refund", order_id=order.order_id, amount=full, reason="x")
    assert not ok and "between" in seen


@pytest.mark.parametrize("amount", [0, -1, "ten", 1.234, float("nan"), True, None])
def test_issue_refund__malformed_amount_is_refused(amount: object) -> None:
    state = _state()
    after, seen, ok = _run(
        state, "issue_refund", order_id=state.task.orders[0].order_id, amount=amount, reason="x"
    )
    assert not ok and seen.startswith("Error:") and after is state


def test_issue_refund__nothing_left_after_a_full_refund() -> None:
    state = _state()
    order = state.task.orders[0]
    after, _, ok = _run(
        state, "issue_refund", order_id=order.order_id, amount=order.total_cents / 100, reason="x"
    )
    again, seen, ok2 = _run(after, "issue_refund", order_id=order.order_id, amount=1, reason="x")
    assert ok and not ok2 and "already been refunded" in seen and again is after


def test_issue_credit__records_cents_up_to_the_system_limit() -> None:
    state = _state()
    oid = state.task.orders[0].order_id
    after, seen, ok = _run(state, "issue_credit", order_id=oid, amount="5.00", reason="x")
    assert ok and after.credits[0].cents == 500 and state.task.customer.name in seen
    too_much = (CREDIT_LIMIT_CENTS + 1) / 100
    _, seen, ok = _run(state, "issue_credit", order_id=oid, amount=too_much, reason="x")
    assert not ok


def test_remake_order__remakes_a_line_and_refuses_unknown_lines() -> None:
    state = _state()
    order = state.task.orders[0]
    line = order.lines[0]
    after, seen, ok = _run(state, "remake_order", order_id=order.order_id, line_id="l1")
    assert ok and after.remakes[0].line_id == line.line_id and line.name in seen
    same, seen, ok = _run(state, "remake_order", order_id=order.order_id, line_id="L99")
    assert not ok and "no line" in seen and same is state


def test_escalate__takes_a_known_category_only() -> None:
    state = _state()
    oid = state.task.orders[0].order_id
    after, seen, ok = _run(state, "escalate", order_id=oid, category=" Allergen ", note="n")
    assert ok and after.escalations[0].category == "allergen" and "allergen team" in seen
    same, seen, ok = _run(state, "escalate", order_id=oid, category="legal", note="n")
    assert not ok and "unknown category" in seen and same is state


def test_message_customer__empty_or_non_text_is_refused() -> None:
    state = _state()
    for text in ("", "   ", 42, None, "x" * 2001):
        same, seen, ok = _run(state, "message_customer", text=text)
        assert not ok and same is state


def test_apply__unknown_tool_and_wrong_arguments_are_refused() -> None:
    state = _state()
    for tool, args in [
        ("refund_everything", {}),
        ("lookup_order", {}),
        ("lookup_order", {"order_id": "x", "extra": 1}),
    ]:
        step = apply(ACTIONS, state, tool, args)
        assert not step.ok and step.state is state
