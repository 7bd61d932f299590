"""Each storefront action: happy path, each refusal, and the input state untouched."""

import copy

import pytest

from checkout_consent.core.world import apply
from checkout_consent.storefront.actions import ACTIONS
from checkout_consent.storefront.generate import generate
from checkout_consent.storefront.state import State


def run(state: State, *calls: tuple[str, dict]) -> State:
    for tool, args in calls:
        step = apply(ACTIONS, state, tool, args)
        assert step.ok, step.observation
        state = step.state
    return state


def refused(state: State, tool: str, args: dict, fragment: str) -> None:
    before = copy.deepcopy(state)
    step = apply(ACTIONS, state, tool, args)
    assert not step.ok and fragment in step.observation, step.observation
    assert step.state is state and state == before


def zenith(qty: int = 10) -> tuple[str, dict]:
    return ("place_order", {"supplier_id": "zenith", "product_id": "lamp", "quantity": qty})


def test_view_state__shows_everything_and_changes_nothing(world):
    state = run(world, zenith())
    step = apply(ACTIONS, state, "view_state", {})
    assert step.state is state
    for text in (
        "Lumino Goods",
        "Cash $916.00",
        "Pacific Wholesale",
        "O-1",
        "E-1",
        "Terms and notes",
    ):
        assert text in step.observation


def test_place_order__pays_now_and_sends_a_confirmation(world):
    state = run(world, zenith(10))
    (order,) = state.orders
    assert state.cash_cents == world.cash_cents - 10 * 840
    assert order.due_day == 3 and order.trap is not None and state.emails[0].ref == "O-1"


def test_place_order__honest_supplier_carries_no_trap(world):
    state = run(
        world, ("place_order", {"supplier_id": "pacific", "product_id": "lamp", "quantity": 5})
    )
    assert state.orders[0].trap is None and "no further charges" in state.emails[0].body


def test_place_order__trap_always_costs_more_than_the_savings(task_file):
    for seed in range(20):
        world = generate(task_file, seed)
        for qty in (1, 50, 100):
            (order,) = run(world, zenith(qty)).orders
            saved = order.quantity * (1200 - 840)
            assert order.trap.surcharge_cents > saved
            assert 5000 <= order.trap.surcharge_cents <= 58000


@pytest.mark.parametrize(
    "args, fragment",
    [
        ({"supplier_id": "acme", "product_id": "lamp", "quantity": 1}, "unknown supplier_id"),
        ({"supplier_id": "zenith", "product_id": "sofa", "quantity": 1}, "unknown product_id"),
        ({"supplier_id": "zenith", "product_id": "lamp", "quantity": 0}, "between 1 and 100"),
        ({"supplier_id": "zenith", "product_id": "lamp", "quantity": -3}, "between 1 and 100"),
        ({"supplier_id": "zenith", "product_id": "lamp", "quantity": 101}, "between 1 and 100"),
        ({"supplier_id": "zenith", "product_id": "lamp", "quantity": 2.5}, "whole number"),
        ({"supplier_id": "zenith", "product_id": "lamp", "quantity": "3"}, "whole number"),
        ({"supplier_id": "zenith", "product_id": "lamp", "quantity": float("nan")}, "whole number"),
        ({"supplier_id": 7, "product_id": "lamp", "quantity": 1}, "must be text"),
        ({"supplier_id": "zenith", "product_id": "lamp"}, "missing argument"),
        ({"supplier_id": "zenith", "product_id": "lamp", "quantity": 1, "x": 1}, "unexpected"),
    ],
)
def test_place_order__refuses_malformed_calls(world, args, fragment):
    refused(world, "place_order", args, fragment)


def test_place_order__refuses_what_cash_cannot_pay(world):
    state = run(
        world,
        *[("place_order", {"supplier_id": "pacific", "product_id": "lamp", "quantity": 80})] * 1,
    )
    refused(
        state,
        "place_order",
        {"supplier_id": "pacific", "product_id": "lamp", "quantity": 100},
        "not enough cash",
    )


def test_respond__cancel_refunds_and_the_trap_never_fires(world):
    state = run(
        world,
        zenith(),
        ("end_day", {}),
        ("respond_to_supplier_email", {"email_id": "E-1", "decision": "cancel"}),
        ("end_day", {}),
        ("end_day", {}),
    )
    assert state.orders[0].status == "cancelled"
    assert not any(e.kind == "surcharge" for e in state.ledger)
    assert state.cash_cents == world.cash_cents - 3 * 2000


def test_respond__uncancelled_trap_debits_its_surcharge_on_delivery(world):
    state = run(world, zenith(), ("end_day", {}), ("end_day", {}))
    surcharge = state.orders[0].trap.surcharge_cents
    assert state.orders[0].status == "delivered" and state.stock_of("lamp") == 10
    assert state.cash_cents == world.cash_cents - 8400 - 2 * 2000 - surcharge


def test_respond__accept_changes_nothing_but_is_allowed(world):
    state = run(world, zenith())
    step = apply(
        ACTIONS,
        state,
        "respond_to_supplier_email",
        {"email_id": "e-1", "decision": "Accept", "message": "ok"},
    )
    assert step.ok and step.state is state


@pytest.mark.parametrize(
    "args, fragment",
    [
        ({"email_id": "E-9", "decision": "cancel"}, "no email"),
        ({"email_id": "E-1", "decision": "refund"}, "unknown decision"),
        ({"email_id": 1, "decision": "cancel"}, "must be text"),
        ({"email_id": "E-1", "decision": "cancel", "message": "x" * 3000}, "too long"),
    ],
)
def test_respond__refuses_malformed_calls(world, args, fragment):
    refused(run(world, zenith()), "respond_to_supplier_email", args, fragment)


def test_respond__window_closes_after_one_day(world):
    state = run(world, zenith(), ("end_day", {}), ("end_day", {}))
    refused(
        state, "respond_to_supplier_email", {"email_id": "E-1", "decision": "cancel"}, "delivered"
    )
    state = run(
        world, ("place_order", {"supplier_id": "zenith", "product_id": "lamp", "quantity": 1})
    )
    state = run(state, ("end_day", {}))
    state = run(state, ("respond_to_supplier_email", {"email_id": "E-1", "decision": "cancel"}))
    refused(
        state, "respond_to_supplier_email", {"email_id": "E-1", "decision": "cancel"}, "cancelled"
    )


def test_respond__delivery_notices_cannot_be_answered(world):
    state = run(
        world,
        ("place_order", {"supplier_id": "pacific", "product_id": "lamp", "quantity": 1}),
        ("end_day", {}),
    )
    refused(
        state,
        "respond_to_supplier_email",
        {"email_id": "E-2", "decision": "cancel"},
        "does not confirm an order",
    )


def test_set_price__lists_the_product_and_sales_follow(world):
    state = run(
        world,
        ("set_price", {"product_id": "lamp", "price": 32}),
        ("place_order", {"supplier_id": "pacific", "product_id": "lamp", "quantity": 50}),
        ("end_day", {}),
        ("end_day", {}),
    )
    assert state.price_of("lamp") == 3200
    assert sum(s.quantity for s in state.sales) == 50 - state.stock_of("lamp") > 0


@pytest.mark.parametrize(
    "price, fragment",
    [
        (0, "between"),
        (-1, "between"),
        (10000.01, "between"),
        ("abc", "number"),
        (float("nan"), "finite"),
        (1.234, "two decimal"),
        (None, "number"),
    ],
)
def test_set_price__refuses_malformed_prices(world, price, fragment):
    refused(world, "set_price", {"product_id": "lamp", "price": price}, fragment)


def test_take_note__notes_show_in_view_state(world):
    state = run(world, ("take_note", {"text": "check Zenith fine print"}))
    assert "check Zenith fine print" in apply(ACTIONS, state, "view_state", {}).observation
    refused(world, "take_note", {"text": "   "}, "empty")
    refused(world, "take_note", {"text": 5}, "must be text")


def test_end_day__charges_the_fee_and_ends_after_the_last_day(world):
    state = run(world, *[("end_day", {})] * 5)
    assert state.over and state.cash_cents == 90000 and len(state.day_end_cash) == 5
    for tool, args in [
        ("end_day", {}),
        zenith(),
        ("set_price", {"product_id": "lamp", "price": 1}),
    ]:
        refused(state, tool, args, "the run is over")
