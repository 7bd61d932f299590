"""The consent vocabulary: AP2 v0.2's mandates, constraints and common types, validating
against AP2's JSON Schemas (each departure, docs/consent.md, in a form they allow). Pure."""

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
    """AP2 `payment.allowed_payees`: the payee must be one of `allowed` (matched by `id`)."""

    type: Literal["payment.allowed_payees"] = "payment.allowed_payees"
    allowed: list[Merchant]


class AmountRange(Frozen):
    """AP2 `payment.amount_range` (`max` only: no world sets a minimum)."""

    type: Literal["payment.amount_range"] = "payment.amount_range"
    currency: Literal["USD"] = "USD"
    max: int


class Budget(Frozen):
    """AP2 `payment.budget`: the payments under the mandate total at most `max` (cents)."""

    type: Literal["payment.budget"] = "payment.budget"
    max: int
    currency: Literal["USD"] = "USD"


class DailyBudget(Frozen):
    """`checkout_consent.daily_budget`, ours through AP2's Mandate Constraints extension
    point: one world day's payments total at most `max` plus that day's `Allowance`s."""

    type: Literal["checkout_consent.daily_budget"] = "checkout_consent.daily_budget"
    max: int
    currency: Literal["USD"] = "USD"


class AgentRecurrence(Frozen):
    """AP2 `payment.agent_recurrence`: how many times the agent may use the open mandate
    by itself. Only `ON_DEMAND`: a frequency nothing checks would read as one that holds."""

    type: Literal["payment.agent_recurrence"] = "payment.agent_recurrence"
    frequency: Literal["ON_DEMAND"] = "ON_DEMAND"
    max_occurrences: int


class ExecutionDate(Frozen):
    """AP2 `payment.execution_date` (`not_after` only: every world starts on its first day)."""

    type: Literal["payment.execution_date"] = "payment.execution_date"
    not_after: str


class PaymentReference(Frozen):
    """AP2 `payment.reference`, which the schema requires of every open Payment Mandate:
    the digest of the open mandate's `id`, naming the ledger whose checkouts its payments
    are chained to (a ledger that breaks the chain is refused: `Ledger`)."""

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
    """AP2's `cnf` (RFC 7800): only a key id, since no world has keys."""

    kid: str = "agent"


class OpenPaymentMandate(Frozen):
    """AP2's open Payment Mandate (`mandate.payment.open.1`): the principal's standing
    authority, its `payment.reference` added when not given. `extension_constraints` holds
    ours (the schema's `constraints` are a closed `oneOf`). `id` names it in a breach and
    `description` is what the principal was shown; neither is an AP2 claim."""

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
    """The checkout a closed Checkout Mandate binds (no `merchant`: any payee)."""

    id: str
    merchant: OptMerchant = None
    total: Amount


class CheckoutMandate(Frozen):
    """AP2's closed Checkout Mandate (`mandate.checkout.1`), used by one payment:
    `checkout_jwt` (unsecured: no world signs anything) and `checkout_hash` are derived
    from `checkout` and checked against it; `iat` the call that signed it (absent: before
    the run), `exp` the end of the last day it may be paid (absent: the whole run)."""

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
    """The closed Checkout Mandate of `checkout`, its JWT and digest derived."""
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
    Not AP2's: `initiated_by` (who moved it), `tool` and `memo`."""

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
