"""The refund policy as code, rule for rule as tasks/pizza/POLICY.md. Pure."""

from __future__ import annotations

from checkout_consent.core import percent_of
from checkout_consent.pizza.state import Expected, Order, Remedy, Task

REFUND_CAP_CENTS = 2500
LATE_CREDIT_BPS, LATE_CREDIT_CAP_CENTS = 2000, 1200
REPEAT_CREDIT_BPS, REPEAT_CREDIT_CAP_CENTS = 1500, 1000
ADDRESS_CREDIT_CENTS = 500
LATE_MINUTES = 30
FRAUD_REFUNDS_60D = 3
QUALITY_KINDS = ("wrong_topping", "cold", "burnt")

# Words a closing message must contain to state each remedy (lower-cased match).
OUTCOME_WORDS: dict[Remedy, tuple[str, ...]] = {
    "refund": ("refund",),
    "credit": ("credit",),
    "remake": ("remake", "remade", "replacement"),
    "escalate": ("escalate", "escalation", "specialist"),
}


def expected_remedy(task: Task) -> Expected:
    """The policy's answer: the first rule of POLICY.md section 2 that matches."""
    complaint, customer = task.complaint, task.customer
    order = task.order(complaint.order_id)
    if order is None:
        raise ValueError(f"{task.task_id}: the complaint's order is not in the task")
    if complaint.kind == "allergen":
        return Expected(remedy="escalate", amount_cents=0, category="allergen")
    if customer.refunds_60d >= FRAUD_REFUNDS_60D:
        return Expected(remedy="escalate", amount_cents=0, category="fraud")
    if complaint.kind in QUALITY_KINDS and customer.quality_complaints_30d >= 1:
        credit = min(percent_of(order.total_cents, REPEAT_CREDIT_BPS), REPEAT_CREDIT_CAP_CENTS)
        return Expected(remedy="credit", amount_cents=credit)
    if complaint.kind == "wrong_topping" or (
        complaint.kind == "cold" and order.minutes_late < LATE_MINUTES
    ):
        return Expected(remedy="remake", amount_cents=0, line_id=complaint.line_id)
    return _money_rules(task, order)


def _money_rules(task: Task, order: Order) -> Expected:
    """Rules 6 to 8: missing item, late delivery, customer-supplied wrong address."""
    complaint = task.complaint
    if complaint.kind == "missing":
        line = order.line(complaint.line_id or "")
        if line is None:
            raise ValueError(f"{task.task_id}: the missing line is not on the order")
        refund = min(line.unit_cents * complaint.missing_qty, REFUND_CAP_CENTS)
        return Expected(remedy="refund", amount_cents=refund)
    if order.minutes_late >= LATE_MINUTES:
        credit = min(percent_of(order.total_cents, LATE_CREDIT_BPS), LATE_CREDIT_CAP_CENTS)
        return Expected(remedy="credit", amount_cents=credit)
    if complaint.kind == "not_received" and complaint.claimed_address != order.delivered_to:
        return Expected(remedy="credit", amount_cents=ADDRESS_CREDIT_CENTS)
    raise ValueError(f"{task.task_id}: no policy rule matches")
