"""The consent vocabulary (core.mandates, core.ledger) against AP2 v0.2: every field of
every model is listed here with the place in AP2 it follows, a JSON pointer into AP2's own
schemas (copied verbatim from github.com/google-agentic-commerce/AP2 at commit
e1ea56db72a6385bce3e5c1112b3a56ce60acb43: tests/core/ap2_schemas/, which says where each
came from) or a section of its specification (docs/ap2/*.md), or as one of ours with the
reason. A field added without a line here, a line whose field is gone, or a pointer that
names nothing in the schema fails; so does a `vct` or constraint `type` that is not the
schema's `const`, or a property a schema requires that its model does not require."""

from __future__ import annotations

import json
import typing

import pytest
from pydantic import BaseModel

from checkout_consent.core import ledger as led
from checkout_consent.core import mandates as m

from . import ap2

OPEN = "open_payment_mandate.json#"
PAY = "payment_mandate.json#"
CHECKOUT = "checkout_mandate.json#"
AMOUNT = "types/amount.json#"
MERCHANT = "types/merchant.json#"
INSTRUMENT = "types/payment_instrument.json#"
SPEC = "specification.md"
RECEIPT = "payment_mandate.md > Payment Receipt (payment_receipt.json)"
OURS = "ours"  # not AP2's: the reason follows; AP2's schemas allow extra keys


def _c(name: str, prop: str) -> str:
    return f"{OPEN}/$defs/{name}/properties/{prop}"


FIELDS: dict[type[BaseModel], dict[str, tuple[str, str]]] = {
    m.Amount: {
        "amount": (f"{AMOUNT}/properties/amount", "integer minor units"),
        "currency": (f"{AMOUNT}/properties/currency", "ISO 4217 alpha-3"),
    },
    m.Merchant: {
        "id": (f"{MERCHANT}/properties/id", "what constraints match"),
        "name": (f"{MERCHANT}/properties/name", "human-readable"),
    },
    m.AgentRecurrence: {
        "type": (_c("agent_recurrence", "type"), "payment.agent_recurrence"),
        "frequency": (_c("agent_recurrence", "frequency"), "ON_DEMAND only: no period"),
        "max_occurrences": (_c("agent_recurrence", "max_occurrences"), "the agent's uses"),
    },
    m.AllowedPayees: {
        "type": (_c("allowed_payees", "type"), "payment.allowed_payees"),
        "allowed": (_c("allowed_payees", "allowed"), "Merchant objects"),
    },
    m.AmountRange: {
        "type": (_c("amount_range", "type"), "payment.amount_range"),
        "currency": (_c("amount_range", "currency"), "must match the payment's"),
        "max": (_c("amount_range", "max"), "minor units"),
    },
    m.Budget: {
        "type": (_c("budget", "type"), "payment.budget"),
        "max": (_c("budget", "max"), "minor units, as Amount"),
        "currency": (_c("budget", "currency"), "ISO 4217"),
    },
    m.DailyBudget: {
        "type": (f"{SPEC} > Extension Points > Mandate Constraints", "our constraint type"),
        "max": (f"{SPEC} > Extension Points > Mandate Constraints", "its schema"),
        "currency": (f"{SPEC} > Extension Points > Mandate Constraints", "its schema"),
    },
    m.ExecutionDate: {
        "type": (_c("execution_date", "type"), "payment.execution_date"),
        "not_after": (_c("execution_date", "not_after"), "ISO 8601 date of a world day"),
    },
    m.PaymentReference: {
        "type": (_c("payment_reference", "type"), "payment.reference"),
        "conditional_transaction_id": (
            _c("payment_reference", "conditional_transaction_id"),
            "digest of the open mandate's id: no world has an open Checkout Mandate",
        ),
    },
    m.Confirmation: {
        "kid": (f"{OPEN}/properties/cnf", "RFC 7800 section 3.4 key id: no world has keys"),
    },
    m.OpenPaymentMandate: {
        "vct": (f"{OPEN}/properties/vct", "mandate.payment.open.1"),
        "constraints": (f"{OPEN}/properties/constraints", "typed by `type`"),
        "cnf": (f"{OPEN}/properties/cnf", "the agent the mandate binds"),
        "extension_constraints": (
            f"{SPEC} > Extension Points > Mandate Constraints",
            "ours, beside `constraints`, whose items are a closed oneOf",
        ),
        "id": (OURS, "a breach names the mandate it breaks"),
        "description": (OURS, "what the principal was shown on the trusted surface"),
    },
    m.Checkout: {
        "id": (f"{CHECKOUT}/properties/checkout_jwt", "the JWT payload's checkout id"),
        "merchant": (f"{CHECKOUT}/properties/checkout_jwt", "the JWT payload's seller"),
        "total": (f"{CHECKOUT}/properties/checkout_jwt", "the JWT payload's total"),
    },
    m.CheckoutMandate: {
        "vct": (f"{CHECKOUT}/properties/vct", "mandate.checkout.1"),
        "checkout_jwt": (f"{CHECKOUT}/properties/checkout_jwt", "an unsecured JWT (alg none)"),
        "checkout_hash": (f"{CHECKOUT}/properties/checkout_hash", "sha-256 of checkout_jwt"),
        "iat": (f"{CHECKOUT}/properties/iat", "Unix time: the world day and call"),
        "exp": (f"{CHECKOUT}/properties/exp", "Unix time: the end of the last world day"),
        "checkout": (OURS, "checkout_jwt's payload, for a reader and the checker"),
        "signed_by": (f"{SPEC} > Modes", "principal: Direct; agent: Autonomous; nobody"),
    },
    m.PaymentInstrument: {
        "id": (f"{INSTRUMENT}/properties/id", "the principal's one account"),
        "type": (f"{INSTRUMENT}/properties/type", "ours, as the extension point allows"),
        "description": (f"{INSTRUMENT}/properties/description", "what it is"),
    },
    m.PaymentMandate: {
        "vct": (f"{PAY}/properties/vct", "mandate.payment.1"),
        "payment_id": (RECEIPT, "payment id"),
        "transaction_id": (f"{PAY}/properties/transaction_id", "its checkout's checkout_hash"),
        "payee": (f"{PAY}/properties/payee", "a Merchant: whoever receives the money"),
        "payment_amount": (f"{PAY}/properties/payment_amount", "an Amount"),
        "payment_instrument": (f"{PAY}/properties/payment_instrument", "the account"),
        "execution_date": (f"{PAY}/properties/execution_date", "ISO 8601 date of the day"),
        "iat": (f"{PAY}/properties/iat", "Unix time: the world day and call"),
        "initiated_by": (OURS, "whose deviation a breach is"),
        "tool": (OURS, "what a reader needs: the tool that moved it"),
        "memo": (OURS, "what a reader needs: the world's ledger memo"),
    },
    led.Allowance: {
        "id": (OURS, "ACP's Allowance, widening the open mandate mid-run"),
        "widens": (OURS, "the constraint type it widens"),
        "merchant": (_c("allowed_payees", "allowed"), "the payee it adds"),
        "max_amount": (OURS, "ACP's max_amount: minor units added to a day's budget"),
        "currency": (f"{AMOUNT}/properties/currency", "ISO 4217"),
        "iat": (OURS, "Unix time it was granted (the world clock)"),
        "exp": (OURS, "Unix time: the end of the world day a raise holds"),
    },
    led.Breach: {
        "mandate": (OURS, "the verdict's record"),
        "constraint": (f"{OPEN}/properties/constraints", "a constraint type"),
        "party": (OURS, "agent or counterparty"),
        "detail": (OURS, "one line a reader reads"),
    },
    led.Verdict: {
        "payment_id": (RECEIPT, "payment id"),
        "within": (OURS, "no breach"),
        "breaches": (OURS, "the breaches"),
    },
    led.Ledger: {
        "principal": (OURS, "who consented"),
        "mandate": (OPEN, "the open Payment Mandate"),
        "checkouts": (CHECKOUT, "closed Checkout Mandates"),
        "allowances": (OURS, "widenings"),
        "payments": (PAY, "closed Payment Mandates"),
        "verdicts": (OURS, "the checker's"),
    },
}

# each AP2 object or constraint and the schema object that defines it
DEFINED = {
    m.OpenPaymentMandate: OPEN,
    m.CheckoutMandate: CHECKOUT,
    m.PaymentMandate: PAY,
    m.Amount: AMOUNT,
    m.Merchant: MERCHANT,
    m.PaymentInstrument: INSTRUMENT,
    m.AgentRecurrence: f"{OPEN}/$defs/agent_recurrence",
    m.AllowedPayees: f"{OPEN}/$defs/allowed_payees",
    m.AmountRange: f"{OPEN}/$defs/amount_range",
    m.Budget: f"{OPEN}/$defs/budget",
    m.ExecutionDate: f"{OPEN}/$defs/execution_date",
    m.PaymentReference: f"{OPEN}/$defs/payment_reference",
}


def _resolve(where: str) -> typing.Any:
    """The schema object a `file#/pointer` names (KeyError: none)."""
    name, _, pointer = where.partition("#")
    node = json.loads((ap2.SCHEMAS / name).read_text(encoding="utf-8"))
    for part in [p for p in pointer.split("/") if p]:
        node = node[part]
    return node


# The spec's strings, as AP2 v0.2 writes them (its Type and constraint sections).
VCT = {
    m.OpenPaymentMandate: "mandate.payment.open.1",
    m.CheckoutMandate: "mandate.checkout.1",
    m.PaymentMandate: "mandate.payment.1",
}
CONSTRAINT_TYPES = {
    m.AgentRecurrence: "payment.agent_recurrence",
    m.AllowedPayees: "payment.allowed_payees",
    m.AmountRange: "payment.amount_range",
    m.Budget: "payment.budget",
    m.ExecutionDate: "payment.execution_date",
    m.PaymentReference: "payment.reference",
    m.DailyBudget: "checkout_consent.daily_budget",  # ours, through the extension point
}


def _models() -> set[type[BaseModel]]:
    return {
        v
        for v in (*vars(m).values(), *vars(led).values())
        if isinstance(v, type)
        and issubclass(v, BaseModel)
        and v.__module__ in (m.__name__, led.__name__)
        and not v.__name__.startswith("_")
    }


def test_ap2_fields__every_model_of_the_vocabulary_is_listed():
    assert _models() == set(FIELDS)


@pytest.mark.parametrize(
    "model", sorted(FIELDS, key=lambda t: t.__name__), ids=lambda t: t.__name__
)
def test_ap2_fields__each_field_is_listed_with_its_spec_section(model):
    assert set(model.model_fields) == set(FIELDS[model]), model.__name__
    for field, (section, why) in FIELDS[model].items():
        assert section and why, (model.__name__, field)
        if "#" in section:
            assert isinstance(_resolve(section), dict), (model.__name__, field, section)


@pytest.mark.parametrize(
    "model", sorted(DEFINED, key=lambda t: t.__name__), ids=lambda t: t.__name__
)
def test_ap2_fields__what_the_schema_requires_the_model_requires(model):
    schema = _resolve(DEFINED[model])
    for prop in schema.get("required", []):
        field = model.model_fields[prop]
        assert field.is_required() or field.default is not None, (model.__name__, prop)
    if "type" in schema.get("properties", {}) and "const" in schema["properties"]["type"]:
        assert model.model_fields["type"].default == schema["properties"]["type"]["const"]
    if "vct" in schema.get("properties", {}):
        assert model.model_fields["vct"].default == schema["properties"]["vct"]["const"]


def test_ap2_fields__vct_and_constraint_types_are_the_specs_strings():
    for model, vct in VCT.items():
        assert typing.get_args(model.model_fields["vct"].annotation) == (vct,)
        assert model.model_fields["vct"].default == vct
    for model, kind in CONSTRAINT_TYPES.items():
        assert model.model_fields["type"].default == kind
    declared = {kind for kind in typing.get_args(m.ConstraintType)}
    assert declared == set(CONSTRAINT_TYPES.values()) | {"transaction_id"}
    union = typing.get_args(typing.get_args(m.PaymentConstraint)[0])
    assert set(union) == set(CONSTRAINT_TYPES) - {m.DailyBudget}  # AP2's own, in `constraints`
    for model in union:  # each is one of the schema's `constraints` oneOf
        assert model in DEFINED, model.__name__


def test_ap2_fields__amounts_are_integer_minor_units_with_a_currency():
    with pytest.raises(ValueError):
        m.Amount(amount=1.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        m.Amount(amount=100, currency="EUR")  # type: ignore[arg-type]
    assert m.usd(1234).model_dump() == {"amount": 1234, "currency": "USD"}


def test_ap2_fields__a_mandate_carries_each_constraint_type_once():
    """Two constraints of one type would leave one unchecked: refused when built or read."""
    with pytest.raises(ValueError, match="each constraint type once"):
        m.OpenPaymentMandate(
            id="x",
            description="two payee lists",
            constraints=[
                m.AllowedPayees(allowed=[m.merchant("a")]),
                m.AllowedPayees(allowed=[m.merchant("b")]),
            ],
        )
    block = {
        "id": "x",
        "description": "d",
        "constraints": [{"type": "payment.budget", "max": 1}] * 2,
    }
    with pytest.raises(ValueError):
        m.OpenPaymentMandate.model_validate(block)
