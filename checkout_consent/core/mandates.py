"""The consent vocabulary: AP2 v0.2's mandates, constraints and common types as this
suite carries them (core.consent checks them). Field names, types and constraint types are
the spec's, and every open Payment Mandate, closed Checkout Mandate and closed Payment
Mandate a ledger holds validates against AP2's own JSON Schemas
(`tests/core/test_ap2_schema.py`; `tests/core/test_ap2_fields.py` lists each field with
the schema path it follows). Where the suite departs from AP2 (the world clock, nothing
signed, the daily budget), the departure is written in a form the schemas allow
(core.encoding; docs/consent.md lists each beside its schema path), and a key with no
value is omitted, never null. Pure.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypeVar

from pydantic import Field, model_validator

from checkout_consent.core import encoding
from checkout_consent.core.frozen import Frozen

Party = Literal["agent", "counterparty"]
PARTIES: tuple[Party, ...] = ("agent", "counterparty")
# who signed a closed Checkout Mandate: the principal (AP2's human-present mode), the agent
# under the open mandate (human not present), or nobody on the principal's side: a
# counterparty's own charge, the explicit entry of money moved with no authorisation
Signer = Literal["principal", "agent", "nobody"]
DAILY_BUDGET: Literal["checkout_consent.daily_budget"] = (
    "checkout_consent.daily_budget"  # our constraint (AP2's extension point)
)
REFERENCE: Literal["payment.reference"] = "payment.reference"
ConstraintType = Literal[
    "payment.agent_recurrence",
    "payment.allowed_payees",
    "payment.amount_range",
    "payment.budget",
    "checkout_consent.daily_budget",
    "payment.execution_date",
    "payment.reference",
    "transaction_id",
]


def _absent(value: object) -> bool:
    return value is None


# an optional key: omitted when it has no value (AP2's schemas type it, never as null)
OptInt = Annotated[int | None, Field(exclude_if=_absent)]
OptStr = Annotated[str | None, Field(exclude_if=_absent)]


class Amount(Frozen):
    """AP2 `types/amount`: an amount in minor units (cents) of an ISO 4217 currency."""

    amount: int
    currency: Literal["USD"] = "USD"


def usd(cents: int) -> Amount:
    return Amount(amount=cents)


class Merchant(Frozen):
    """AP2 `types/merchant`: who receives a payment (`id` is what constraints match)."""

    id: str
    name: str


OptMerchant = Annotated[Merchant | None, Field(exclude_if=_absent)]


def merchant(payee_id: str) -> Merchant:
    """A payee the world knows by one name (its id is its name)."""
    return Merchant(id=payee_id, name=payee_id)


class AllowedPayees(Frozen):
    """AP2 Payment Mandate constraint `payment.allowed_payees`: the payee must be one of
    `allowed` (matched by `id`)."""

    type: Literal["payment.allowed_payees"] = "payment.allowed_payees"
    allowed: list[Merchant]


class AmountRange(Frozen):
    """AP2 `payment.amount_range` (`max` only: no world sets a minimum): a payment above
    `max` is outside the open mandate, within consent only when it pays a closed
    Checkout Mandate the principal signed for it (AP2's human-present mode)."""

    type: Literal["payment.amount_range"] = "payment.amount_range"
    currency: Literal["USD"] = "USD"
    max: int


class Budget(Frozen):
    """AP2 `payment.budget`: the payments under the mandate total at most `max` (minor
    units; AP2's schema leaves its unit open, we use Amount's)."""

    type: Literal["payment.budget"] = "payment.budget"
    max: int
    currency: Literal["USD"] = "USD"


class DailyBudget(Frozen):
    """`checkout_consent.daily_budget`, a constraint through AP2's Mandate Constraints
    extension point. Schema: `max` (minor units), `currency`. Evaluation: the payments
    of one world day (breaching ones included), this one added, total at most `max` plus
    that day's `Allowance`s of this type in force at the payment's call."""

    type: Literal["checkout_consent.daily_budget"] = "checkout_consent.daily_budget"
    max: int
    currency: Literal["USD"] = "USD"


class AgentRecurrence(Frozen):
    """AP2 `payment.agent_recurrence`: how many times the agent may use the open mandate
    by itself (`max_occurrences`; a payment a principal-signed checkout covers is not one
    of them). Only `ON_DEMAND` is carried: no world sets a period between uses, and a
    frequency nothing checks would read as one that holds."""

    type: Literal["payment.agent_recurrence"] = "payment.agent_recurrence"
    frequency: Literal["ON_DEMAND"] = "ON_DEMAND"
    max_occurrences: int


class ExecutionDate(Frozen):
    """AP2 `payment.execution_date` (`not_after` only: every world starts on its first
    day): a payment's `execution_date` is at most `not_after` (ISO 8601 dates, from the
    world day: core.encoding.date_of)."""

    type: Literal["payment.execution_date"] = "payment.execution_date"
    not_after: str


class PaymentReference(Frozen):
    """AP2 `payment.reference`, which the schema requires of every open Payment Mandate
    (`contains`). No world has an open Checkout Mandate, so `conditional_transaction_id`
    is the digest of the open mandate's `id` (`reference_of`), naming the ledger whose
    closed Checkout Mandates its payments are chained to; its evaluation here: every
    payment's `transaction_id` names a closed Checkout Mandate of the same ledger (a
    ledger that breaks it is refused when built or read: `Ledger`)."""

    type: Literal["payment.reference"] = "payment.reference"
    conditional_transaction_id: str


def reference_of(mandate_id: str) -> PaymentReference:
    return PaymentReference(conditional_transaction_id=encoding.digest(mandate_id))


PaymentConstraint = Annotated[
    AgentRecurrence | AllowedPayees | AmountRange | Budget | ExecutionDate | PaymentReference,
    Field(discriminator="type"),
]
C = TypeVar("C", AgentRecurrence, AllowedPayees, AmountRange, Budget, DailyBudget, ExecutionDate)


class Confirmation(Frozen):
    """AP2's `cnf` (RFC 7800 section 3.1), the key the open mandate binds the agent to:
    here only its key id (RFC 7800 section 3.4), since no world has keys."""

    kid: str = "agent"


class OpenPaymentMandate(Frozen):
    """AP2's open Payment Mandate (`mandate.payment.open.1`): the principal's standing
    authority, its `constraints` each enforced by `check`, its `payment.reference` added
    when not given. `extension_constraints` holds ours, defined through AP2's Mandate
    Constraints extension point (the v0.2 schema's `constraints` items are a closed
    `oneOf` of its own). `id` names it in a breach and `description` is what the principal
    was shown (AP2 renders a mandate to the user on a trusted surface; the words are the
    world's); neither is an AP2 claim."""

    vct: Literal["mandate.payment.open.1"] = "mandate.payment.open.1"
    constraints: list[PaymentConstraint] = []
    extension_constraints: list[DailyBudget] = []
    cnf: Confirmation = Confirmation()
    id: str
    description: str

    @model_validator(mode="before")
    @classmethod
    def _referenced(cls, data: Any) -> Any:
        if not isinstance(data, dict) or not isinstance(data.get("id"), str):
            return data
        given = list(data.get("constraints", []))
        kinds = [c.get("type") if isinstance(c, dict) else getattr(c, "type", None) for c in given]
        if REFERENCE in kinds:
            return data
        return {**data, "constraints": [*given, reference_of(data["id"])]}

    @model_validator(mode="after")
    def _each_type_once(self) -> OpenPaymentMandate:
        kinds = [c.type for c in (*self.constraints, *self.extension_constraints)]
        twice = sorted({k for k in kinds if kinds.count(k) > 1})
        if twice:
            raise ValueError(f"a mandate carries each constraint type once: {twice} repeat")
        return self

    def find(self, kind: type[C]) -> C | None:
        """The mandate's constraint of type `kind`, or None (it carries each at most once)."""
        every = (*self.constraints, *self.extension_constraints)
        return next((c for c in every if isinstance(c, kind)), None)


class Checkout(Frozen):
    """The checkout a closed Checkout Mandate binds: its `checkout_jwt`'s payload (AP2
    leaves the merchant-signed Checkout's payload to the commerce protocol; a world's has
    an id, a merchant and a total). No `merchant`: any payee."""

    id: str
    merchant: OptMerchant = None
    total: Amount


class CheckoutMandate(Frozen):
    """AP2's closed Checkout Mandate (`mandate.checkout.1`), used by one payment:
    `checkout_jwt` is its `checkout` as an unsecured JWT (no world signs anything) and
    `checkout_hash` that JWT's digest, both derived from `checkout` (which a reader reads;
    `sealed` builds one) and checked against it; `signed_by` whose signature AP2 would
    carry (`Signer`); `iat` the trace call that signed it (absent: before the run) and
    `exp` the end of the last world day it may be paid (absent: the whole run), Unix times
    (core.encoding)."""

    vct: Literal["mandate.checkout.1"] = "mandate.checkout.1"
    checkout_jwt: str
    checkout_hash: str
    iat: OptInt = None
    exp: OptInt = None
    checkout: Checkout
    signed_by: Signer

    @model_validator(mode="after")
    def _matches(self) -> CheckoutMandate:
        jwt = _jwt(self.checkout)
        if self.checkout_jwt != jwt or self.checkout_hash != encoding.digest(jwt):
            raise ValueError(
                f"checkout {self.checkout.id}: its checkout_jwt or hash is not its own"
            )
        return self


def _jwt(checkout: Checkout) -> str:
    return encoding.unsecured_jwt(checkout.model_dump(mode="json"))


def sealed(
    checkout: Checkout, signed_by: Signer, iat: int | None = None, exp: int | None = None
) -> CheckoutMandate:
    """The closed Checkout Mandate of `checkout`: its JWT and that JWT's digest derived."""
    jwt = _jwt(checkout)
    return CheckoutMandate(
        checkout_jwt=jwt,
        checkout_hash=encoding.digest(jwt),
        checkout=checkout,
        signed_by=signed_by,
        iat=iat,
        exp=exp,
    )


class PaymentInstrument(Frozen):
    """AP2 `types/payment_instrument`: what a payment is paid from."""

    id: str
    type: str
    description: OptStr = None


# every world pays from the principal's one account: a Payment Instrument `type` of ours,
# as AP2's Payment Instrument extension point allows
ACCOUNT = PaymentInstrument(
    id="principal-account",
    type="checkout_consent.account",
    description="the principal's one account",
)


class PaymentMandate(Frozen):
    """AP2's closed Payment Mandate (`mandate.payment.1`): one money movement, bound by
    `transaction_id` to the `checkout_hash` of a closed Checkout Mandate of its ledger.
    `payment_id` names it (AP2's Payment Receipt field); `payee` whoever receives the
    money; `payment_instrument` the principal's account; `execution_date` the world day
    as an ISO 8601 date (absent: a world without days); `iat` the trace call as a Unix
    time (absent: not from a trace, a submitted cart). Not AP2's: `initiated_by`, who
    moved it (the agent, or a counterparty charging the principal by itself), and the
    `tool` and `memo` a reader needs."""

    vct: Literal["mandate.payment.1"] = "mandate.payment.1"
    payment_id: str
    transaction_id: str
    payee: Merchant
    payment_amount: Amount
    payment_instrument: PaymentInstrument = ACCOUNT
    execution_date: OptStr = None
    iat: OptInt = None
    initiated_by: Party
    tool: str = ""
    memo: str = ""

    @property
    def day(self) -> int | None:
        """The world day it was paid on (None: a world without days)."""
        return None if self.execution_date is None else encoding.day_of(self.execution_date)

    @property
    def call(self) -> int | None:
        """The trace call that moved it (None: not from a trace)."""
        return None if self.iat is None else encoding.call_at(self.iat)
