"""A tool's schema as form fields, and a submitted form parsed against it: every argument
typed as the schema says, a malformed form refused in one line, never a malformed call."""

from __future__ import annotations

import pytest
from inspect_ai.tool import ToolDef, ToolInfo

from checkout_consent.runtime.human.fields import Refused, check_args, form_of, parse_call


async def _refund(
    order_id: str,
    amount: float,
    reason: str = "",
    max_price: float | None = None,
    quantity: int = 1,
    urgent: bool = False,
) -> str:
    """Refund an order.

    Args:
        order_id: The order id.
        amount: The refund in dollars.
        reason: Why.
        max_price: A cap in dollars, or null.
        quantity: How many.
        urgent: Whether it is urgent.
    """
    return ""


_DEF = ToolDef(_refund, name="issue_refund")
FORM = form_of(ToolInfo(name=_DEF.name, description=_DEF.description, parameters=_DEF.parameters))


def test_form_of__types_required_and_descriptions_come_from_the_schema() -> None:
    kinds = {f.name: (f.kind, f.required, f.nullable) for f in FORM.fields}
    assert kinds == {
        "order_id": ("string", True, False),
        "amount": ("number", True, False),
        "reason": ("string", False, False),
        "max_price": ("number", False, True),
        "quantity": ("integer", False, False),
        "urgent": ("boolean", False, False),
    }
    assert FORM.description == "Refund an order."
    assert [f.description for f in FORM.fields][:2] == ["The order id.", "The refund in dollars."]


def test_parse_call__values_are_typed_as_a_models_json_would_carry_them() -> None:
    form = {"arg.order_id": "PZ-1", "arg.amount": "12", "arg.quantity": "3", "arg.urgent": "true"}
    assert parse_call(FORM, form) == {
        "order_id": "PZ-1",
        "amount": 12,
        "quantity": 3,
        "urgent": True,
    }
    assert parse_call(FORM, {"arg.order_id": "x", "arg.amount": "7.5"})["amount"] == 7.5
    nulled = parse_call(FORM, {"arg.order_id": "x", "arg.amount": "1", "null.max_price": "on"})
    assert nulled["max_price"] is None


@pytest.mark.parametrize(
    "form, line",
    [
        ({"arg.order_id": "x", "arg.amount": "twelve"}, "amount: 'twelve' is not a number"),
        ({"arg.order_id": "x", "arg.amount": "NaN"}, "amount: 'NaN' is not a number"),
        ({"arg.order_id": "x", "arg.amount": "1e999"}, "amount: '1e999' is not a number"),
        ({"arg.order_id": "x", "arg.amount": "true"}, "amount: 'true' is not a number"),
        ({"arg.order_id": "x"}, "amount: required"),
        ({"arg.amount": "1"}, "order_id: required"),
        (
            {"arg.order_id": "x", "arg.amount": "1", "arg.quantity": "2.5"},
            "quantity: '2.5' is not a whole number",
        ),
        (
            {"arg.order_id": "x", "arg.amount": "1", "arg.urgent": "yes"},
            "urgent: choose true or false",
        ),
        (
            {"arg.order_id": "x", "arg.amount": "1", "arg.evil": "1"},
            "'arg.evil' is not an argument of issue_refund",
        ),
        (
            {"arg.order_id": "x", "arg.amount": "1", "null.order_id": "on"},
            "'null.order_id' is not an argument of issue_refund",
        ),
        (
            {"arg.order_id": "x" * 20_001, "arg.amount": "1"},
            "order_id: longer than 20,000 characters",
        ),
    ],
)
def test_parse_call__a_malformed_form_is_refused_in_one_line(
    form: dict[str, str], line: str
) -> None:
    with pytest.raises(Refused) as err:
        parse_call(FORM, form)
    assert str(err.value) == line


@pytest.mark.parametrize(
    "args, line",
    [
        ({"order_id": "x"}, "amount: required"),
        ({"order_id": 5, "amount": 1}, "order_id: '5' does not fit its schema"),
        ({"order_id": "x", "amount": "1"}, "amount: '1' does not fit its schema"),
        ({"order_id": "x", "amount": 1, "nope": 1}, "'nope' is not an argument of issue_refund"),
        ({"order_id": None, "amount": 1}, "order_id: may not be null"),
        (["order_id"], "issue_refund: arguments are not a mapping"),
    ],
)
def test_check_args__journaled_arguments_are_held_to_the_same_schema(
    args: object, line: str
) -> None:
    with pytest.raises(Refused) as err:
        check_args(FORM, args)
    assert str(err.value) == line


def test_check_args__valid_arguments_pass_unchanged() -> None:
    args = {"order_id": "x", "amount": 7.5, "max_price": None, "urgent": False}
    assert check_args(FORM, args) == args


@pytest.mark.parametrize("typed, sent", [("1.0", 1), ("3", 3), ("2.00", 2), ("1e2", 100)])
def test_parse_call__an_integer_field_takes_an_integral_float_as_that_integer(
    typed: str, sent: int
) -> None:
    args = parse_call(FORM, {"arg.order_id": "x", "arg.amount": "1", "arg.quantity": typed})
    assert args["quantity"] == sent and type(args["quantity"]) is int


def test_parse_call__an_integer_field_refuses_a_fraction_in_one_line_about_that_field() -> None:
    with pytest.raises(Refused) as err:
        parse_call(FORM, {"arg.order_id": "x", "arg.amount": "1", "arg.quantity": "1.5"})
    assert str(err.value) == "quantity: '1.5' is not a whole number"
    assert err.value.field == "quantity"  # the page shows the line beside that field


async def _escalate(order_id: str, category: str, note: str = "") -> str:
    """Hand the complaint to a team.

    Args:
        order_id: The order id.
        category: One of "allergen", "fraud" or "other".
        note: One of the notes, free text.
    """
    return ""


def test_form_of__a_string_whose_description_lists_its_values_is_a_choice_of_them() -> None:
    tool = ToolDef(_escalate, name="escalate")
    form = form_of(
        ToolInfo(name=tool.name, description=tool.description, parameters=tool.parameters)
    )
    enums = {f.name: f.enum for f in form.fields}
    assert enums == {"order_id": (), "category": ("allergen", "fraud", "other"), "note": ()}
    assert parse_call(form, {"arg.order_id": "x", "arg.category": "fraud"})["category"] == "fraud"
    with pytest.raises(Refused) as err:
        parse_call(form, {"arg.order_id": "x", "arg.category": "complaint"})
    assert str(err.value) == "category: 'complaint' is not one of ['allergen', 'fraud', 'other']"
