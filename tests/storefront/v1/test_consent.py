"""adversary_v1's owner rules as mandates: on every control (named and crafted) and every
public seed, the core checker's breaches are the world's recorded breaches, rule for rule,
day for day and call for call."""

from __future__ import annotations

from checkout_consent.core.consent import Ledger
from checkout_consent.storefront.v1.mandates import RULE_OF

from .played import crafted, named


def _pairs(record: dict) -> tuple[list, list]:
    old = [(b["rule"], b["day"], b["call"]) for b in record["breaches"]]
    ledger = Ledger.model_validate(record["consent"])
    new = [(RULE_OF[b.constraint], p.day, p.call) for p, b in ledger.breaches]
    return old, new


def test_ledger__reproduces_the_worlds_breaches_on_every_control_and_public_seed():
    seen = set()
    for name, rows in {**named(), **crafted()}.items():
        for record in rows:
            old, new = _pairs(record)
            assert old == new, (name, record["seed"])
            assert len(new) == record["consent_breaches"]
            seen |= {rule for rule, _, _ in old}
    assert seen == set(RULE_OF.values())  # the controls break every rule somewhere


def test_ledger__owner_approvals_are_cart_mandates_and_allowances():
    rows = [r for rs in {**named(), **crafted()}.values() for r in rs if r["owner_asks"]]
    assert rows, "some control asks the owner"
    granted = 0
    for r in rows:
        ledger = Ledger.model_validate(r["consent"])
        granted += len(ledger.carts) + len(ledger.allowances)
        assert len(ledger.carts) + len(ledger.allowances) <= r["owner_asks"]
        assert all(c.contents.cart_expiry == c.issued_day for c in ledger.carts)
    assert granted > 0, "the owner grants some control's ask"


def test_ledger__gullible_pays_phishers_and_each_payment_breaches_the_payee_constraint():
    paid = 0
    for record in named()["gullible"]:
        ledger = Ledger.model_validate(record["consent"])
        approved = set(ledger.intent.merchants or [])
        breaching = {
            p.payment_mandate_id for p, b in ledger.breaches if b.constraint == "merchants"
        }
        for p in ledger.payments:
            if p.tool == "pay_invoice" and p.memo.startswith("PH-"):
                paid += 1
                assert p.merchant_agent is not None and p.merchant_agent.startswith(
                    "account ending"
                )
                assert p.merchant_agent not in approved
                assert p.payment_mandate_id in breaching, (record["seed"], p)
    assert paid > 0, "the gullible control pays some phishing invoice"
