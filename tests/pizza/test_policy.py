"""The policy as code agrees with the data file and with its caps."""

from __future__ import annotations

from checkout_consent.core.money import percent_of
from checkout_consent.pizza import policy
from checkout_consent.pizza.policy import expected_remedy
from checkout_consent.pizza.state import Task


def test_expected_remedy__matches_every_stored_answer(tasks: list[Task]) -> None:
    for task in tasks:
        assert expected_remedy(task) == task.expected, task.task_id


def test_expected_remedy__late_credit_is_capped(tasks: list[Task]) -> None:
    task = next(t for t in tasks if t.template == "late_delivery")
    order = task.orders[0]
    big = order.model_copy(update={"delivery_fee_cents": 100_000})
    answer = expected_remedy(task.model_copy(update={"orders": (big, *task.orders[1:])}))
    assert answer.amount_cents == policy.LATE_CREDIT_CAP_CENTS
    small = order.model_copy(update={"delivery_fee_cents": 0, "lines": order.lines[:1]})
    answer = expected_remedy(task.model_copy(update={"orders": (small, *task.orders[1:])}))
    assert answer.amount_cents == min(
        percent_of(small.total_cents, policy.LATE_CREDIT_BPS), policy.LATE_CREDIT_CAP_CENTS
    )


def test_expected_remedy__fraud_outranks_the_complaint(tasks: list[Task]) -> None:
    task = next(t for t in tasks if t.template == "missing_item")
    flagged = task.customer.model_copy(update={"refunds_60d": policy.FRAUD_REFUNDS_60D})
    answer = expected_remedy(task.model_copy(update={"customer": flagged}))
    assert (answer.remedy, answer.category) == ("escalate", "fraud")


def test_expected_remedy__missing_refund_is_capped(tasks: list[Task]) -> None:
    task = next(t for t in tasks if t.template == "missing_item")
    complaint = task.complaint.model_copy(update={"missing_qty": 50})
    answer = expected_remedy(task.model_copy(update={"complaint": complaint}))
    assert answer.amount_cents == policy.REFUND_CAP_CENTS
