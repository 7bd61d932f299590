"""The consent vocabulary (core.mandates) against AP2 v0.2: every field of every model and
every constraint type is listed here with the section of the AP2 v0.2 specification it
follows (docs/ap2/specification.md, payment_mandate.md, checkout_mandate.md and the JSON
schemas under code/sdk/schemas/ap2/ of github.com/google-agentic-commerce/AP2), or as one
of ours with the reason. A field added without a line here, or a line whose field is gone,
fails; so does a `vct` or constraint `type` that is not the spec's string."""

from __future__ import annotations

import typing

import pytest
from pydantic import BaseModel

from checkout_consent.core import mandates as m

PAY = "payment_mandate.md"
CHECKOUT = "checkout_mandate.md"
WORLD = "specification.md"
OURS = "ours"  # not AP2's: the reason follows

FIELDS: dict[type[BaseModel], dict[str, tuple[str, str]]] = {
    m.Amount: {
        "amount": ("Common Types > Amount (types/amount.json)", "integer minor units"),
        "currency": ("Common Types > Amount (types/amount.json)", "ISO 4217 alpha-3"),
    },
    m.Merchant: {
        "id": ("Common Types > Merchant (types/merchant.json)", "what constraints match"),
        "name": ("Common Types > Merchant (types/merchant.json)", "human-readable"),
    },
    m.AgentRecurrence: {
        "type": (f"{PAY} > Agent Recurrence", "payment.agent_recurrence"),
        "frequency": (f"{PAY} > Agent Recurrence", "ON_DEMAND only: no period is carried"),
        "max_occurrences": (f"{PAY} > Agent Recurrence", "uses of the open mandate"),
    },
    m.AllowedPayees: {
        "type": (f"{PAY} > Allowed Payees", "payment.allowed_payees"),
        "allowed": (f"{PAY} > Allowed Payees", "Merchant objects"),
    },
    m.AmountRange: {
        "type": (f"{PAY} > Amount Range", "payment.amount_range"),
        "currency": (f"{PAY} > Amount Range", "must match the payment's"),
        "max": (f"{PAY} > Amount Range", "minor units"),
    },
    m.Budget: {
        "type": (f"{PAY} > Budget", "payment.budget"),
        "max": (f"{PAY} > Budget", "minor units, as Amount"),
        "currency": (f"{PAY} > Budget", "ISO 4217"),
    },
    m.DailyBudget: {
        "type": (f"{WORLD} > Extension Points > Mandate Constraints", "our constraint type"),
        "max": (f"{WORLD} > Extension Points > Mandate Constraints", "its schema"),
        "currency": (f"{WORLD} > Extension Points > Mandate Constraints", "its schema"),
    },
    m.ExecutionDate: {
        "type": (f"{PAY} > Execution Date", "payment.execution_date"),
        "not_after": (f"{PAY} > Execution Date", "a world day, not ISO 8601 (the clock)"),
    },
    m.OpenPaymentMandate: {
        "vct": (f"{PAY} > Type", "mandate.payment.open.1"),
        "constraints": (f"{PAY} > Payment Mandate Constraints", "typed by `type`"),
        "id": (OURS, "a breach names the mandate it breaks"),
        "description": (OURS, "what the principal was shown on the trusted surface"),
    },
    m.Checkout: {
        "id": (f"{CHECKOUT} > Mandate Schema (checkout_jwt's Checkout)", "UCP checkout id"),
        "merchant": (f"{CHECKOUT} > Mandate Schema (checkout_jwt's Checkout)", "the seller"),
        "total": (f"{CHECKOUT} > Mandate Schema (checkout_jwt's Checkout)", "UCP total"),
    },
    m.CheckoutMandate: {
        "vct": (f"{CHECKOUT} > Type", "mandate.checkout.1"),
        "checkout": (f"{CHECKOUT} > Mandate Schema", "in place of checkout_jwt: unsigned"),
        "iat": (f"{CHECKOUT} > Mandate Schema", "a trace call index (the clock)"),
        "exp": (f"{CHECKOUT} > Mandate Schema", "the last world day (the clock)"),
        "signed_by": (f"{WORLD} > Modes", "principal: Direct; agent: Autonomous"),
    },
    m.Allowance: {
        "id": (OURS, "ACP's Allowance, widening the open mandate mid-run"),
        "widens": (OURS, "the constraint type it widens"),
        "merchant": (f"{PAY} > Allowed Payees", "the payee it adds"),
        "max_amount": (OURS, "ACP's max_amount: minor units added to a day's budget"),
        "currency": ("Common Types > Amount (types/amount.json)", "ISO 4217"),
        "iat": (OURS, "the call it was granted at (the clock)"),
        "exp": (OURS, "the world day a budget raise holds (the clock)"),
    },
    m.PaymentMandate: {
        "vct": (f"{PAY} > Type", "mandate.payment.1"),
        "payment_id": (f"{PAY} > Payment Receipt (payment_receipt.json)", "payment id"),
        "transaction_id": (f"{PAY} > Mandate Schema", "the checkout's id, not its hash"),
        "payee": (f"{PAY} > Mandate Schema", "a Merchant: whoever receives the money"),
        "payment_amount": (f"{PAY} > Mandate Schema", "an Amount"),
        "execution_date": (f"{PAY} > Mandate Schema", "a world day (the clock)"),
        "iat": (f"{PAY} > Mandate Schema", "a trace call index (the clock)"),
        "initiated_by": (OURS, "whose deviation a breach is"),
        "tool": (OURS, "what a reader needs: the tool that moved it"),
        "memo": (OURS, "what a reader needs: the world's ledger memo"),
    },
    m.Breach: {
        "mandate": (OURS, "the verdict's record"),
        "constraint": (f"{PAY} > Payment Mandate Constraints", "a constraint type"),
        "party": (OURS, "agent or counterparty"),
        "detail": (OURS, "one line a reader reads"),
    },
    m.Verdict: {
        "payment_id": (f"{PAY} > Payment Receipt (payment_receipt.json)", "payment id"),
        "within": (OURS, "no breach"),
        "breaches": (OURS, "the breaches"),
    },
    m.Ledger: {
        "principal": (OURS, "who consented"),
        "mandate": (f"{PAY} > Type", "the open Payment Mandate"),
        "checkouts": (f"{CHECKOUT} > Type", "closed Checkout Mandates"),
        "allowances": (OURS, "widenings"),
        "payments": (f"{PAY} > Type", "closed Payment Mandates"),
        "verdicts": (OURS, "the checker's"),
    },
}

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
    m.DailyBudget: "checkout_consent.daily_budget",  # ours, through the extension point
}


def _models() -> set[type[BaseModel]]:
    return {
        v
        for v in vars(m).values()
        if isinstance(v, type)
        and issubclass(v, BaseModel)
        and v.__module__ == m.__name__
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


def test_ap2_fields__vct_and_constraint_types_are_the_specs_strings():
    for model, vct in VCT.items():
        assert typing.get_args(model.model_fields["vct"].annotation) == (vct,)
        assert model.model_fields["vct"].default == vct
    for model, kind in CONSTRAINT_TYPES.items():
        assert model.model_fields["type"].default == kind
    declared = {kind for kind in typing.get_args(m.ConstraintType)}
    assert declared == set(CONSTRAINT_TYPES.values()) | {"transaction_id"}
    union = typing.get_args(typing.get_args(m.PaymentConstraint)[0])
    assert set(union) == set(CONSTRAINT_TYPES)


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
