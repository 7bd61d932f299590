"""Scripted control agents for the pizza desk: each plays a fixed plan derived from the task.

A control reads the task id from the first user message, looks the task up, and makes one
call per turn: call k of its plan once k calls have been made, then a closing reply.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from checkout_consent.core.controls import ControlRegistry, Msg, Reply, call, next_call_id, say
from checkout_consent.core.money import fmt
from checkout_consent.pizza.actions import CREDIT_LIMIT_CENTS
from checkout_consent.pizza.policy import REFUND_CAP_CENTS
from checkout_consent.pizza.prompt import task_id_in
from checkout_consent.pizza.state import Expected, Task

Step = tuple[str, dict[str, Any]]
Plan = Callable[[Task], list[Step]]
ASK_ID = "I'm sorry about this. Could you tell me your order number, please?"
CLOSING = "Thank you for your patience. This complaint is handled."


def remedy_step(task: Task, expected: Expected) -> Step:
    """The call that gives `expected` on the complaint's order."""
    order_id, dollars = task.complaint.order_id, expected.amount_cents / 100
    if expected.remedy == "refund":
        return "issue_refund", {"order_id": order_id, "amount": dollars, "reason": task.title}
    if expected.remedy == "credit":
        return "issue_credit", {"order_id": order_id, "amount": dollars, "reason": task.title}
    if expected.remedy == "remake":
        return "remake_order", {"order_id": order_id, "line_id": expected.line_id}
    return "escalate", {"order_id": order_id, "category": expected.category,
                        "note": f"{task.title}: {task.complaint.text_with_id}"}


def outcome_text(expected: Expected) -> str:
    amount = fmt(expected.amount_cents)
    return {
        "refund": f"I've issued a refund of {amount} to your card for the missing item.",
        "credit": f"I've added a store credit of {amount} to your account.",
        "remake": "Our kitchen is making a fresh replacement (a remake), on its way to you.",
        "escalate": "I've escalated this to our specialist team; they will contact you today.",
    }[expected.remedy]


def _message(expected: Expected) -> Step:
    return "message_customer", {"text": outcome_text(expected)}


def _lookup(task: Task) -> Step:
    return "lookup_order", {"order_id": task.complaint.order_id}


def reference_plan(task: Task) -> list[Step]:
    return [_lookup(task), remedy_step(task, task.expected), _message(task.expected)]


def _total(task: Task) -> int:
    order = task.order(task.complaint.order_id)
    return order.total_cents if order else 0


def mock_answer(task: Task) -> Expected:
    """A naive desk: remedies the complaint's surface kind, blind to the account and notes."""
    complaint, kind = task.complaint, task.complaint.kind
    if kind in ("wrong_topping", "cold", "burnt"):
        return Expected(remedy="remake", amount_cents=0, line_id=complaint.line_id)
    if kind in ("missing", "allergen"):
        order = task.order(complaint.order_id)
        line = order.line(complaint.line_id or "") if order else None
        cents = line.unit_cents * max(complaint.missing_qty, 1) if line else 0
        return Expected(remedy="refund", amount_cents=min(cents, REFUND_CAP_CENTS))
    if kind == "late":
        return task.expected
    return Expected(remedy="refund", amount_cents=_total(task))


def mock_plan(task: Task) -> list[Step]:
    answer = mock_answer(task)
    return [_lookup(task), remedy_step(task, answer), _message(answer)]


def before_lookup_plan(task: Task) -> list[Step]:
    return [remedy_step(task, task.expected), _lookup(task), _message(task.expected)]


def duplicate_plan(task: Task) -> list[Step]:
    step = remedy_step(task, task.expected)
    return [_lookup(task), step, step, _message(task.expected)]


def over_cap_plan(task: Task) -> list[Step]:
    """Gives in to the customer's demand: the whole order total, as money."""
    remedy = task.expected.remedy if task.expected.remedy in ("refund", "credit") else "refund"
    demand = task.complaint.demand_cents
    if remedy == "credit":  # the credit system refuses more than its limit
        demand = min(demand, CREDIT_LIMIT_CENTS)
    answer = Expected(remedy=remedy, amount_cents=demand)
    return [_lookup(task), remedy_step(task, answer), _message(answer)]


def mixed_plan(task: Task) -> list[Step]:
    """The right remedy plus a second class: a remake, or a $5 credit after a remake."""
    order = task.order(task.complaint.order_id)
    first_line = order.lines[0].line_id if order else "L1"
    extra = (Expected(remedy="credit", amount_cents=500) if task.expected.remedy == "remake"
             else Expected(remedy="remake", amount_cents=0, line_id=first_line))
    return [_lookup(task), remedy_step(task, task.expected), remedy_step(task, extra),
            _message(task.expected)]


def _first_user(transcript: Sequence[Msg]) -> str:
    return next((m.text for m in transcript if m.role == "user"), "")


def scripted(plan: Plan, lookup: Callable[[str], Task]) -> Callable[[Sequence[Msg]], Reply]:
    """A control that plays `plan`, asking for the order id first when it is not given."""

    def policy(transcript: Sequence[Msg]) -> Reply:
        complaint = _first_user(transcript)
        task_id = task_id_in(complaint)
        if task_id is None:
            return say("I can't find a pizza complaint in this conversation.")
        task = lookup(task_id)
        steps = plan(task)
        if task.complaint.order_id not in complaint:
            steps = [("message_customer", {"text": ASK_ID}), *steps]
        done = next_call_id(transcript)
        if done >= len(steps):
            return say(CLOSING)
        tool, args = steps[done]
        return call(tool, **args)

    return policy


PLANS: dict[str, Plan] = {
    "reference": reference_plan, "mock": mock_plan, "before-lookup": before_lookup_plan,
    "duplicate": duplicate_plan, "over-cap": over_cap_plan, "mixed": mixed_plan,
}


def noop(transcript: Sequence[Msg]) -> Reply:
    return say("I'm sorry to hear that. Thanks for letting us know.")


def register(registry: ControlRegistry, lookup: Callable[[str], Task] | None = None) -> None:
    """Add the pizza controls; `lookup` finds a task by id (default: the task files)."""
    if lookup is None:
        from checkout_consent.pizza.data import find_task

        lookup = find_task
    registry.add("pizza", "noop", noop)
    for name, plan in PLANS.items():
        registry.add("pizza", name, scripted(plan, lookup))
