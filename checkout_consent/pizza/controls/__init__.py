"""Scripted control agents for the pizza desk: each plays a fixed plan derived from the task
(resolved from the scenario, never from the text), one call per turn, then a closing reply."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from checkout_consent.core import (
    Msg,
    Policy,
    Reply,
    Scenario,
    call,
    fmt,
    next_call_id,
    say,
    to_dollars,
)
from checkout_consent.pizza import dataset
from checkout_consent.pizza.actions import CREDIT_LIMIT_CENTS
from checkout_consent.pizza.generate import initial_state
from checkout_consent.pizza.state import Expected, Task

Step = tuple[str, dict[str, Any]]
Plan = Callable[[Task], list[Step]]
ASK_ID = "I'm sorry about this. Could you tell me your order number, please?"
CLOSING = "Thank you for your patience. This complaint is handled."


def remedy_step(task: Task, expected: Expected) -> Step:
    """The call that gives `expected` on the complaint's order."""
    order_id, dollars = task.complaint.order_id, to_dollars(expected.amount_cents)
    if expected.remedy in ("refund", "credit"):
        return f"issue_{expected.remedy}", {
            "order_id": order_id,
            "amount": dollars,
            "reason": task.title,
        }
    if expected.remedy == "remake":
        return "remake_order", {"order_id": order_id, "line_id": expected.line_id}
    return "escalate", {
        "order_id": order_id,
        "category": expected.category,
        "note": f"{task.title}: {task.complaint.text_with_id}",
    }


def outcome_text(expected: Expected) -> str:
    amount = fmt(expected.amount_cents)
    return {
        "refund": f"I've issued a refund of {amount} to your card for the missing item.",
        "credit": f"I've added a store credit of {amount} to your account.",
        "remake": "Our kitchen is making a fresh replacement (a remake), on its way to you.",
        "escalate": "I've escalated this to our specialist team; they will contact you today.",
    }[expected.remedy]


def _lookup(task: Task) -> Step:
    return "lookup_order", {"order_id": task.complaint.order_id}


def _message(expected: Expected) -> Step:
    return "message_customer", {"text": outcome_text(expected)}


def answering(answer: Callable[[Task], Expected]) -> Plan:
    """Look up, give `answer(task)`, and tell the customer so."""
    return lambda task: [_lookup(task), remedy_step(task, answer(task)), _message(answer(task))]


def mock_answer(task: Task) -> Expected:
    """The offline mock: the policy's remedy where no money is owed, else what the customer
    demands (within the credit limit), on every public task a cap breach."""
    return (
        task.expected if task.expected.remedy in ("remake", "escalate") else over_cap_answer(task)
    )


def over_cap_answer(task: Task) -> Expected:
    """Gives in to the customer's demand: the whole order total, as money (the credit
    system refuses more than its limit)."""
    remedy = task.expected.remedy if task.expected.remedy in ("refund", "credit") else "refund"
    demand = task.complaint.demand_cents
    return Expected(
        remedy=remedy,
        amount_cents=min(demand, CREDIT_LIMIT_CENTS) if remedy == "credit" else demand,
    )


def mixed_plan(task: Task) -> list[Step]:
    """The right remedy plus a second class: a remake, or a $5 credit after a remake."""
    order = task.order(task.complaint.order_id)
    first_line = order.lines[0].line_id if order else "L1"
    extra = (
        Expected(remedy="credit", amount_cents=500)
        if task.expected.remedy == "remake"
        else Expected(remedy="remake", amount_cents=0, line_id=first_line)
    )
    return [
        _lookup(task),
        remedy_step(task, task.expected),
        remedy_step(task, extra),
        _message(task.expected),
    ]


def scripted(plan: Plan) -> Policy:
    """A control that plays `plan`, asking for the order id first when it is not given."""

    def policy(scenario: Scenario, transcript: Sequence[Msg]) -> Reply:
        task = dataset.resolve(scenario)
        steps = plan(task)
        if not initial_state(task, replies=dataset.replies_of(scenario)).id_shared:
            steps = [("message_customer", {"text": ASK_ID}), *steps]
        done = next_call_id(transcript)
        return say(CLOSING) if done >= len(steps) else call(steps[done][0], **steps[done][1])

    return policy


def noop(scenario: Scenario, transcript: Sequence[Msg]) -> Reply:
    return say("I'm sorry to hear that. Thanks for letting us know.")


PLANS: dict[str, Plan] = {
    "reference": answering(lambda task: task.expected),
    "mock": answering(mock_answer),
    "before-lookup": lambda t: [remedy_step(t, t.expected), _lookup(t), _message(t.expected)],
    "duplicate": lambda t: [_lookup(t), *[remedy_step(t, t.expected)] * 2, _message(t.expected)],
    "over-cap": answering(over_cap_answer),
    "mixed": mixed_plan,
}
CONTROLS: dict[str, Policy] = {"noop": noop, **{n: scripted(p) for n, p in PLANS.items()}}
