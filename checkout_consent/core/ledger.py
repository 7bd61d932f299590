"""A run's consent ledger (core.consent checks it): allowances, breaches, verdicts, the
`Ledger` a record carries as its `consent` block, and the constructors worlds use. Pure."""

from __future__ import annotations

from typing import Literal

from pydantic import model_validator

from checkout_consent.core import encoding
from checkout_consent.core.frozen import Frozen
from checkout_consent.core.mandates import (
    Checkout,
    CheckoutMandate,
    ConstraintType,
    Merchant,
    OpenPaymentMandate,
    OptInt,
    OptMerchant,
    Party,
    PaymentMandate,
    Signer,
    sealed,
    usd,
)


def signed(
    checkout_id: str,
    payee: Merchant | None,
    cents: int,
    signer: Signer,
    call: int | None = None,
    day: int | None = None,
    last_day: int | None = None,
) -> CheckoutMandate:
    """A closed Checkout Mandate of `cents` from `payee` (None: any), signed by `signer` at
    `call` of `day`, payable until `last_day`."""
    checkout = Checkout(id=checkout_id, merchant=payee, total=usd(cents))
    return sealed(
        checkout,
        signer,
        iat=None if call is None else encoding.instant(call, day),
        exp=None if last_day is None else encoding.end_of(last_day),
    )


class Allowance(Frozen):
    """A widening of the open mandate granted during the run (ACP's word; AP2 would issue a
    new mandate): from `iat` on, `merchant` joins the allowed payees, or `max_amount` more
    on the daily budget of the day `exp` ends."""

    id: str
    widens: Literal["payment.allowed_payees", "checkout_consent.daily_budget"]
    merchant: OptMerchant = None
    max_amount: int = 0
    currency: Literal["USD"] = "USD"
    iat: OptInt = None
    exp: OptInt = None


def bound(
    payment_id: str,
    checkout: CheckoutMandate,
    payee: Merchant,
    cents: int,
    initiated_by: Party = "agent",
    call: int | None = None,
    day: int | None = None,
    tool: str = "",
    memo: str = "",
) -> PaymentMandate:
    """A closed Payment Mandate of `cents` to `payee`, bound to `checkout`, at `call` of `day`."""
    return PaymentMandate(
        payment_id=payment_id,
        transaction_id=checkout.checkout_hash,
        payee=payee,
        payment_amount=usd(cents),
        execution_date=None if day is None else encoding.date_of(day),
        iat=None if call is None else encoding.instant(call, day),
        initiated_by=initiated_by,
        tool=tool,
        memo=memo,
    )


class Breach(Frozen):
    """A payment outside a mandate in force: the mandate (or checkout) id, the constraint
    (`transaction_id`: beyond its checkout, or one nobody signed) and whose it is."""

    mandate: str
    constraint: ConstraintType
    party: Party
    detail: str


class Verdict(Frozen):
    payment_id: str
    within: bool
    breaches: list[Breach] = []


class Ledger(Frozen):
    """A run's consent block: the mandates, the payments and their verdicts. Every payment
    names a checkout of this ledger, each checkout once (`payment.reference`), or refused."""

    principal: str
    mandate: OpenPaymentMandate
    checkouts: list[CheckoutMandate] = []
    allowances: list[Allowance] = []
    payments: list[PaymentMandate] = []
    verdicts: list[Verdict] = []

    @model_validator(mode="after")
    def _bound(self) -> Ledger:
        hashes = [c.checkout_hash for c in self.checkouts]
        if len(set(hashes)) != len(hashes):
            raise ValueError("a ledger holds each closed Checkout Mandate once")
        unbound = [p.payment_id for p in self.payments if p.transaction_id not in set(hashes)]
        if unbound:
            raise ValueError(
                f"payment {unbound[0]}'s transaction_id names no checkout of its ledger"
            )
        return self

    @property
    def breaches(self) -> list[tuple[PaymentMandate, Breach]]:
        by_id = {p.payment_id: p for p in self.payments}
        return [(by_id[v.payment_id], b) for v in self.verdicts for b in v.breaches]
