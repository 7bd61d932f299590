"""The consent ledger under a score's explanation (runtime.scorer.consent_text): the
breaches counted per party and per rule first, then the breaching payments as a Markdown
list, each breach nested under its payment; nothing for a record without a ledger."""

from __future__ import annotations

from checkout_consent.core.consent import check
from checkout_consent.core.ledger import bound, signed
from checkout_consent.core.mandates import (
    AllowedPayees,
    CheckoutMandate,
    OpenPaymentMandate,
    PaymentMandate,
    merchant,
)
from checkout_consent.runtime.scorer import consent_text

INTENT = OpenPaymentMandate(
    id="rules",
    description="acme only",
    constraints=[AllowedPayees(allowed=[merchant("acme")])],
)


def _paid(n: int, to: str) -> tuple[PaymentMandate, CheckoutMandate]:
    cart = signed(f"C-{n}", merchant(to), 1_234, "agent", n)
    return bound(f"P-{n}", cart, merchant(to), 1_234, call=n), cart


def test_consent_text__lists_the_breaching_payments_with_their_breach_nested() -> None:
    (p1, c1), (p2, c2) = _paid(1, "acme"), _paid(2, "ghost")
    ledger = check("owner", INTENT, [p1, p2], [c1, c2])
    text = consent_text({"consent": ledger.model_dump(mode="json")})
    lines = text.strip().splitlines()
    assert lines[:4] == [
        "**Consent ledger**",
        "",
        "- payments: 2, breaches: 1 (agent 1, counterparty 0)",
        "- payment.allowed_payees: agent 1",
    ]
    assert lines[-2:] == [
        "- P-2 $12.34 to ghost (charge by the agent, call 2, checkout C-2): BREACH",
        "  - agent's breach of rules payment.allowed_payees: paid ghost, not allowed",
    ]
    assert not any("P-1" in line for line in lines)  # within consent: only in `consent LOG`


def test_consent_text__is_empty_without_a_ledger() -> None:
    assert consent_text({"score": 1.0}) == ""
