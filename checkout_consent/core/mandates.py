"""The consent vocabulary: AP2 v0.2's mandates, constraints and common types as this
suite carries them (core.consent checks them). Field names and constraint types are the
spec's; `tests/core/test_ap2_fields.py` lists each with the section it follows, and
docs/consent.md where it departs from AP2 (the day/call clock, the daily
budget defined through AP2's extension point, nothing signed, nothing carried that no world
checks). Pure.
"""

from __future__ import annotations

from typing import Annotated, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, model_validator

Party = Literal["agent", "counterparty"]
PARTIES: tuple[Party, ...] = ("agent", "counterparty")
Signer = Literal["principal", "agent"]
DAILY_BUDGET: Literal["checkout_consent.daily_budget"] = (
    "checkout_consent.daily_budget"  # our constraint (AP2's extension point)
)
ConstraintType = Literal[
    "payment.agent_recurrence",
    "payment.allowed_payees",
    "payment.amount_range",
    "payment.budget",
    "checkout_consent.daily_budget",
    "payment.execution_date",
    "transaction_id",
]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Amount(_Frozen):
    """AP2 `types/amount`: an amount in minor units (cents) of an ISO 4217 currency."""

    amount: int
    currency: Literal["USD"] = "USD"


def usd(cents: int) -> Amount:
    return Amount(amount=cents)


class Merchant(_Frozen):
    """AP2 `types/merchant`: who receives a payment (`id` is what constraints match)."""

    id: str
    name: str


def merchant(payee_id: str) -> Merchant:
    """A payee the world knows by one name (its id is its name)."""
    return Merchant(id=payee_id, name=payee_id)


class AllowedPayees(_Frozen):
    """AP2 Payment Mandate constraint `payment.allowed_payees`: the payee must be one of
    `allowed` (matched by `id`); an unnamed payee never is."""

    type: Literal["payment.allowed_payees"] = "payment.allowed_payees"
    allowed: list[Merchant]


class AmountRange(_Frozen):
    """AP2 `payment.amount_range` (`max` only: no world sets a minimum): a payment above
    `max` is outside the open mandate, within consent only when it pays a closed
    Checkout Mandate the principal signed for it (AP2's human-present mode)."""

    type: Literal["payment.amount_range"] = "payment.amount_range"
    currency: Literal["USD"] = "USD"
    max: int


class Budget(_Frozen):
    """AP2 `payment.budget`: the payments under the mandate total at most `max` (minor
    units; AP2's schema leaves its unit open, we use Amount's)."""

    type: Literal["payment.budget"] = "payment.budget"
    max: int
    currency: Literal["USD"] = "USD"


class DailyBudget(_Frozen):
    """`checkout_consent.daily_budget`, a constraint through AP2's Mandate Constraints
    extension point. Schema: `max` (minor units), `currency`. Evaluation: the payments
    of one world day (breaching ones included), this one added, total at most `max` plus
    that day's `Allowance`s of this type in force at the payment's call."""

    type: Literal["checkout_consent.daily_budget"] = "checkout_consent.daily_budget"
    max: int
    currency: Literal["USD"] = "USD"


class AgentRecurrence(_Frozen):
    """AP2 `payment.agent_recurrence`: how many times the agent may use the open mandate
    by itself (`max_occurrences`; a payment a principal-signed checkout covers is not one
    of them). Only `ON_DEMAND` is carried: no world sets a period between uses, and a
    frequency nothing checks would read as one that holds."""

    type: Literal["payment.agent_recurrence"] = "payment.agent_recurrence"
    frequency: Literal["ON_DEMAND"] = "ON_DEMAND"
    max_occurrences: int


class ExecutionDate(_Frozen):
    """AP2 `payment.execution_date` (`not_after` only: every world starts on its first
    day): a payment's `execution_date` (a world day) is at most `not_after`."""

    type: Literal["payment.execution_date"] = "payment.execution_date"
    not_after: int


PaymentConstraint = Annotated[
    AgentRecurrence | AllowedPayees | AmountRange | Budget | DailyBudget | ExecutionDate,
    Field(discriminator="type"),
]


C = TypeVar("C", AgentRecurrence, AllowedPayees, AmountRange, Budget, DailyBudget, ExecutionDate)


class OpenPaymentMandate(_Frozen):
    """AP2's open Payment Mandate (`mandate.payment.open.1`): the principal's standing
    authority, its `constraints` each enforced by `check`. `id` names it in a breach and
    `description` is what the principal was shown (AP2 renders a mandate to the user on
    a trusted surface; the words are the world's); neither is an AP2 claim."""

    vct: Literal["mandate.payment.open.1"] = "mandate.payment.open.1"
    id: str
    description: str
    constraints: list[PaymentConstraint] = []

    @model_validator(mode="after")
    def _each_type_once(self) -> OpenPaymentMandate:
        kinds = [c.type for c in self.constraints]
        twice = sorted({k for k in kinds if kinds.count(k) > 1})
        if twice:
            raise ValueError(f"a mandate carries each constraint type once: {twice} repeat")
        return self

    def find(self, kind: type[C]) -> C | None:
        """The mandate's constraint of type `kind`, or None (it carries each at most once)."""
        return next((c for c in self.constraints if isinstance(c, kind)), None)


class Checkout(_Frozen):
    """The checkout a closed Checkout Mandate binds (AP2 leaves the merchant-signed
    Checkout's payload to the commerce protocol; a world's has an id, a merchant and a
    total). `merchant` None: any payee."""

    id: str
    merchant: Merchant | None = None
    total: Amount


class CheckoutMandate(_Frozen):
    """AP2's closed Checkout Mandate (`mandate.checkout.1`), used by one payment: the
    `checkout` in place of AP2's `checkout_jwt` and `checkout_hash` (no world signs
    anything), `signed_by` the principal (human present) or the agent under the open
    mandate (human not present), `iat` the trace call that signed it (None: before the
    run), `exp` the last world day it may be paid (None: the whole run)."""

    vct: Literal["mandate.checkout.1"] = "mandate.checkout.1"
    checkout: Checkout
    signed_by: Signer
    iat: int | None = None
    exp: int | None = None


class Allowance(_Frozen):
    """A widening of the open mandate granted during the run (the word is ACP's; AP2
    would issue a new open mandate): from call `iat` on, `merchant` joins the allowed
    payees (`widens` payment.allowed_payees), or `max_amount` more on the daily budget of
    day `exp` (`widens` checkout_consent.daily_budget)."""

    id: str
    widens: Literal["payment.allowed_payees", "checkout_consent.daily_budget"]
    merchant: Merchant | None = None
    max_amount: int = 0
    currency: Literal["USD"] = "USD"
    iat: int | None = None
    exp: int | None = None


class PaymentMandate(_Frozen):
    """AP2's closed Payment Mandate (`mandate.payment.1`): one money movement.
    `payment_id` names it (AP2's Payment Receipt field); `transaction_id` the checkout it
    pays (AP2: the hash of its checkout JWT; here the checkout's id; None: bound to no
    checkout); `payee` whoever receives the money (None: unnamed, which no payee
    constraint allows); `execution_date` the world day (None: a world without days);
    `iat` the trace call (None: not from a trace, a submitted cart). Not AP2's:
    `initiated_by`, who moved it (the agent, or a counterparty charging the principal by
    itself), and the `tool` and `memo` a reader needs. `payment_instrument` is not
    carried: every world pays from one account."""

    vct: Literal["mandate.payment.1"] = "mandate.payment.1"
    payment_id: str
    transaction_id: str | None = None
    payee: Merchant | None = None
    payment_amount: Amount
    execution_date: int | None = None
    iat: int | None = None
    initiated_by: Party
    tool: str = ""
    memo: str = ""


class Breach(_Frozen):
    """A payment outside a mandate in force: which mandate (its id, or the checkout's)
    and constraint (an AP2 constraint type, or `transaction_id`: a payment beyond the
    checkout it is bound to), and whose deviation it is (`party`)."""

    mandate: str
    constraint: ConstraintType
    party: Party
    detail: str


class Verdict(_Frozen):
    payment_id: str
    within: bool
    breaches: list[Breach] = []


class Ledger(_Frozen):
    """A run's consent block: the mandates, the payments and their verdicts."""

    principal: str
    mandate: OpenPaymentMandate
    checkouts: list[CheckoutMandate] = []
    allowances: list[Allowance] = []
    payments: list[PaymentMandate] = []
    verdicts: list[Verdict] = []

    @property
    def breaches(self) -> list[tuple[PaymentMandate, Breach]]:
        by_id = {p.payment_id: p for p in self.payments}
        return [(by_id[v.payment_id], b) for v in self.verdicts for b in v.breaches]
