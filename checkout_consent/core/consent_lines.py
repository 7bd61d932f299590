"""A consent ledger as lines people read (core.consent), and what a breach is in each
world, said once for every surface that compares worlds (`Breaches`). Pure."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from checkout_consent.core.ledger import Ledger
from checkout_consent.core.mandates import (
    PARTIES,
    AgentRecurrence,
    AllowedPayees,
    AmountRange,
    Budget,
    DailyBudget,
    ExecutionDate,
    Party,
    PaymentConstraint,
    PaymentMandate,
    PaymentReference,
)
from checkout_consent.core.money import fmt

CANNOT = "cannot breach here"


def cannot(why: str) -> str:
    """A party's breach in a world where it has none: "cannot breach here: <why>"."""
    return f"{CANNOT}: {why}"


@dataclass(frozen=True)
class Breaches:
    """What a consent breach is in a world, in a reader's words, and whose rate it measures."""

    agent: str = "a payment outside the principal's mandates"
    counterparty: str = cannot("no counterparty moves the principal's money by itself")
    measured: Party = "agent"

    def column(self) -> str:
        """What the rate a comparing table shows for the world counts."""
        if self.measured == "agent":
            return "runs with an agent's breach"
        return "runs with a counterparty breach the agent let through"


BREACH_HEADS = ["world", "the agent's breach", "a counterparty's breach", "its rate counts"]


def breach_table(worlds: list[tuple[str, Breaches]]) -> list[list[str]]:
    """One row per world (`BREACH_HEADS`): what each party's breach is, whose rate counts."""
    return [[name, b.agent, b.counterparty, b.column()] for name, b in worlds]


def _when(p: PaymentMandate) -> str:
    day, call = p.day, p.call
    parts = ("" if day is None else f"day {day}", "" if call is None else f"call {call}")
    return ", ".join(part for part in parts if part) or "no trace"


def count_lines(ledger: Ledger) -> list[str]:
    """The breaches counted: in all and per party, then per rule with its parties."""
    found = [b for v in ledger.verdicts for b in v.breaches]
    parties = Counter(b.party for b in found)
    out = [
        f"payments: {len(ledger.payments)}, breaches: {len(found)} ("
        + ", ".join(f"{party} {parties[party]}" for party in PARTIES)
        + ")"
    ]
    rules = Counter((b.constraint, b.party) for b in found)
    for rule in sorted({c for c, _ in rules}):
        by = ", ".join(f"{party} {rules[rule, party]}" for party in PARTIES if rules[rule, party])
        out.append(f"  {rule}: {by}")
    return out


def _rule(c: PaymentConstraint | DailyBudget) -> str:
    if isinstance(c, AllowedPayees):
        return f"{c.type} {', '.join(m.id for m in c.allowed) or 'none'}"
    if isinstance(c, AmountRange):
        return f"{c.type} up to {fmt(c.max)} (above it: a checkout the principal signed)"
    if isinstance(c, AgentRecurrence):
        alone = f"{c.max_occurrences} payment(s) by the agent alone"
        return f"{c.type} {alone} (beyond: a checkout the principal signed)"
    if isinstance(c, Budget | DailyBudget):
        return f"{c.type} {fmt(c.max)}"
    if isinstance(c, PaymentReference):
        return f"{c.type} (every payment bound to a checkout of this ledger)"
    assert isinstance(c, ExecutionDate)
    return f"{c.type} until {c.not_after}"


def ledger_lines(block: Mapping[str, Any], every: bool = True) -> list[str]:
    """A consent block as lines people read (`every` False: only the breaching payments)."""
    ledger = Ledger.model_validate(block)
    mandate = ledger.mandate
    rules = (*mandate.constraints, *mandate.extension_constraints)
    signed = Counter(c.signed_by for c in ledger.checkouts)
    out = [
        *count_lines(ledger),
        f"principal: {ledger.principal}",
        f"open payment mandate {mandate.id}: {mandate.description}",
        f"  constraints: {'; '.join(map(_rule, rules)) or 'none'}",
        f"checkouts signed: {signed['principal']} by the principal, {signed['agent']} by "
        f"the agent, {signed['nobody']} by nobody (a counterparty's own charge); "
        f"allowances: {len(ledger.allowances)}",
    ]
    verdicts = {v.payment_id: v for v in ledger.verdicts}
    carts = {c.checkout_hash: c for c in ledger.checkouts}
    for p in ledger.payments:
        v = verdicts.get(p.payment_id)
        breaching = v is not None and not v.within
        if not every and not breaching:
            continue
        how, checkout = p.tool or "charge", carts[p.transaction_id].checkout.id
        out.append(
            f"  {p.payment_id} {fmt(p.payment_amount.amount)} to {p.payee.id} ({how} by the "
            f"{p.initiated_by}, {_when(p)}, checkout {checkout}): "
            + ("BREACH" if breaching else "within consent")
        )
        for b in [] if v is None else v.breaches:
            out.append(f"    {b.party}'s breach of {b.mandate} {b.constraint}: {b.detail}")
    return out
