"""The scripted customer: the id only when asked, pushes, one outcome reply, then silence."""

from __future__ import annotations

from checkout_consent.core.world import apply
from checkout_consent.pizza.actions import ACTIONS
from checkout_consent.pizza.customer import asks_for_order_id
from checkout_consent.pizza.generate import initial_state
from checkout_consent.pizza.state import State, Task
from tests.pizza.pizza_helpers import task_of


def _withheld(template: str) -> Task:
    from checkout_consent.pizza.dataset import public_tasks

    return next(t for t in public_tasks() if t.template == template and not t.complaint.gives_id)


def _say(state: State, text: str) -> tuple[State, str]:
    step = apply(ACTIONS, state, "message_customer", {"text": text})
    assert step.ok
    return step.state, step.observation


def test_asks_for_order_id__needs_order_and_an_id_word() -> None:
    assert asks_for_order_id("What is your order number?")
    assert asks_for_order_id("Could you share the order ID")
    assert asks_for_order_id("Order # please")
    assert asks_for_order_id("What's the confirmation number on your receipt?")
    assert not asks_for_order_id("Your order is being remade")
    assert not asks_for_order_id("Did you receive it?")


def test_customer__gives_the_withheld_id_only_when_asked() -> None:
    task = _withheld("cold_pizza")
    oid = task.complaint.order_id
    assert oid not in task.complaint.text
    state = initial_state(task)
    state, seen = _say(state, "So sorry to hear that!")
    assert oid not in seen and not state.id_shared
    state, seen = _say(state, "Could you give me your order number?")
    assert oid in seen and state.id_shared


def test_customer__pushes_before_a_remedy_and_answers_the_outcome_once() -> None:
    task = task_of("angry_repeat", 2)
    state = initial_state(task)
    pushes = task.complaint.script.pushes
    for expected in (*pushes, pushes[-1]):
        state, seen = _say(state, "I hear you.")
        assert expected in seen
    oid = task.complaint.order_id
    state = apply(
        ACTIONS, state, "issue_credit", {"order_id": oid, "amount": 1, "reason": "r"}
    ).state
    state, seen = _say(state, "I added a credit.")
    assert task.complaint.script.outcome in seen
    state, seen = _say(state, "Anything else?")
    assert "left the chat" in seen and state.messages[-1].reply == ""


def test_customer__silent_and_id_in_complaint_when_replies_are_off() -> None:
    task = _withheld("missing_item")
    state = initial_state(task, replies=False)
    assert state.id_shared and task.complaint.order_id in task.complaint.text_with_id
    state, seen = _say(state, "What is your order number?")
    assert seen == f"Message sent to {task.customer.name}."
    assert state.messages[-1].reply_kind == "none"


def test_customer__reply_is_a_function_of_state_and_text() -> None:
    state = initial_state(task_of("late_delivery", 3))
    first = apply(ACTIONS, state, "message_customer", {"text": "order number?"})
    second = apply(ACTIONS, state, "message_customer", {"text": "order number?"})
    assert first == second
