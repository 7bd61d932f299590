"""A consent ledger as lines people read (core.consent): the breaches counted per rule
and per party first, then the mandates, then the payments with their verdicts. Pure."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from checkout_consent.core.consent import PARTIES, Ledger
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


def _rules(ledger: Ledger) -> str:
    intent = ledger.intent
    rules = [
        f"merchants: {', '.join(intent.merchants) or 'none'}"
        if intent.merchants is not None
        else "",
        f"spend cap {fmt(intent.period_cap_cents)}" if intent.period_cap_cents is not None else "",
        (
            "a cart for every payment"
            if intent.cart_required_above_cents is None
            else f"a cart above {fmt(intent.cart_required_above_cents)}"
        )
        if intent.user_cart_confirmation_required
        else "",
        f"until day {intent.intent_expiry}" if intent.intent_expiry is not None else "",
    ]
    return "; ".join(r for r in rules if r) or "none beyond the approved carts"


def ledger_lines(block: Mapping[str, Any], every: bool = True) -> list[str]:
    """A consent block (a record's `consent`, as JSON) as lines people read: the counts
    per rule and per party, the intent, the approved carts and allowances, then every
    payment with its verdict (`every` False: only the breaching ones)."""
    ledger = Ledger.model_validate(block)
    intent = ledger.intent
    out = [
        *count_lines(ledger),
        f"principal: {ledger.principal}",
        f"intent {intent.id}: {intent.natural_language_description}",
        f"  constraints: {_rules(ledger)}",
        f"carts approved: {len(ledger.carts)}, allowances: {len(ledger.allowances)}",
    ]
    verdicts = {v.payment_mandate_id: v for v in ledger.verdicts}
    for p in ledger.payments:
        v = verdicts.get(p.payment_mandate_id)
        breaching = v is not None and not v.within
        if not every and not breaching:
            continue
        to = f" to {p.merchant_agent}" if p.merchant_agent else " to an unnamed payee"
        out.append(
            f"  {p.payment_mandate_id} {fmt(p.amount_cents)}{to} ({p.tool or 'charge'} by "
            f"the {p.initiated_by}, {_when(p.day, p.call)}): "
            + ("BREACH" if breaching else "within consent")
        )
        for b in [] if v is None else v.breaches:
            out.append(f"    {b.party}'s breach of {b.mandate} {b.constraint}: {b.detail}")
    return out
