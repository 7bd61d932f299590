"""The consent ledger under a score's explanation (runtime.scorer.consent_text): the
breaches counted per party and per rule first, then the breaching payments as a Markdown
list, each breach nested under its payment; nothing for a record without a ledger."""

from __future__ import annotations

from checkout_consent.core.consent import check
from checkout_consent.core.mandates import (
    AllowedPayees,
    OpenPaymentMandate,
    PaymentMandate,
    merchant,
    usd,
)
from checkout_consent.runtime.scorer import consent_text

INTENT = OpenPaymentMandate(
    id="rules",
    description="acme only",
    constraints=[AllowedPayees(allowed=[merchant("acme")])],
)


def _paid(n: int, to: str) -> PaymentMandate:
    return PaymentMandate(
        payment_id=f"P-{n}",
        payment_amount=usd(1_234),
        payee=merchant(to),
        initiated_by="agent",
        iat=n,
    )


def test_consent_text__lists_the_breaching_payments_with_their_breach_nested() -> None:
    ledger = check("owner", INTENT, [_paid(1, "acme"), _paid(2, "ghost")])
    text = consent_text({"consent": ledger.model_dump(mode="json")})
    lines = text.strip().splitlines()
    assert lines[:4] == [
        "**Consent ledger**",
        "",
        "- payments: 2, breaches: 1 (agent 1, counterparty 0)",
        "- payment.allowed_payees: agent 1",
    ]
    assert lines[-2:] == [
        "- P-2 $12.34 to ghost (charge by the agent, call 2): BREACH",
        "  - agent's breach of rules payment.allowed_payees: paid ghost, not allowed",
    ]
    assert not any("P-1" in line for line in lines)  # within consent: only in `consent LOG`


def test_consent_text__is_empty_without_a_ledger() -> None:
    assert consent_text({"score": 1.0}) == ""
