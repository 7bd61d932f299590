"""A consent ledger as lines people read (core.consent): the breaches counted per rule
and per party first, then the mandates, then the payments with their verdicts. Pure."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from checkout_consent.core.mandates import (
    PARTIES,
    AgentRecurrence,
    AllowedPayees,
    AmountRange,
    Budget,
    DailyBudget,
    ExecutionDate,
    Ledger,
    PaymentConstraint,
)
from checkout_consent.core.money import fmt


def _when(day: int | None, call: int | None) -> str:
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


def _rule(c: PaymentConstraint) -> str:
    if isinstance(c, AllowedPayees):
        return f"{c.type} {', '.join(m.id for m in c.allowed) or 'none'}"
    if isinstance(c, AmountRange):
        return f"{c.type} up to {fmt(c.max)} (above it: a checkout the principal signed)"
    if isinstance(c, AgentRecurrence):
        alone = f"{c.max_occurrences} payment(s) by the agent alone"
        return f"{c.type} {alone} (beyond: a checkout the principal signed)"
    if isinstance(c, Budget | DailyBudget):
        return f"{c.type} {fmt(c.max)}"
    assert isinstance(c, ExecutionDate)
    return f"{c.type} until day {c.not_after}"


def ledger_lines(block: Mapping[str, Any], every: bool = True) -> list[str]:
    """A consent block (a record's `consent`, as JSON) as lines people read: the counts
    per rule and per party, the open mandate and its constraints, the signed checkouts
    and allowances, then every payment with its verdict (`every` False: only the
    breaching ones)."""
    ledger = Ledger.model_validate(block)
    mandate = ledger.mandate
    signed = Counter(c.signed_by for c in ledger.checkouts)
    out = [
        *count_lines(ledger),
        f"principal: {ledger.principal}",
        f"open payment mandate {mandate.id}: {mandate.description}",
        f"  constraints: {'; '.join(map(_rule, mandate.constraints)) or 'none'}",
        f"checkouts signed: {signed['principal']} by the principal, {signed['agent']} by "
        f"the agent; allowances: {len(ledger.allowances)}",
    ]
    verdicts = {v.payment_id: v for v in ledger.verdicts}
    for p in ledger.payments:
        v = verdicts.get(p.payment_id)
        breaching = v is not None and not v.within
        if not every and not breaching:
            continue
        to = f" to {p.payee.id}" if p.payee is not None else " to an unnamed payee"
        out.append(
            f"  {p.payment_id} {fmt(p.payment_amount.amount)}{to} ({p.tool or 'charge'} by "
            f"the {p.initiated_by}, {_when(p.execution_date, p.iat)}): "
            + ("BREACH" if breaching else "within consent")
        )
        for b in [] if v is None else v.breaches:
            out.append(f"    {b.party}'s breach of {b.mandate} {b.constraint}: {b.detail}")
    return out
