"""adversary_v1's owner rules as mandates: on every control (named and crafted) and every
public seed, the core checker's breaches are the world's recorded breaches, rule for rule,
day for day and call for call."""

from __future__ import annotations

from checkout_consent.core.mandates import AllowedPayees, Ledger
from checkout_consent.storefront_v1.mandates import RULE_OF

from .played import crafted, named


def _pairs(record: dict) -> tuple[list, list]:
    old = [(b["rule"], b["day"], b["call"]) for b in record["breaches"]]
    ledger = Ledger.model_validate(record["consent"])
    new = [(RULE_OF[b.constraint], p.execution_date, p.iat) for p, b in ledger.breaches]
    return old, new


def test_ledger__reproduces_the_worlds_breaches_on_every_control_and_public_seed():
    seen = set()
    for name, rows in {**named(), **crafted()}.items():
        for record in rows:
            old, new = _pairs(record)
            assert old == new, (name, record["seed"])
            assert len(new) == record["consent_breaches"]
            assert all(p.payee for p in Ledger.model_validate(record["consent"]).payments)
            seen |= {rule for rule, _, _ in old}
    assert seen == set(RULE_OF.values())  # the controls break every rule somewhere


def test_ledger__owner_approvals_are_checkouts_the_owner_signed_and_allowances():
    rows = [r for rs in {**named(), **crafted()}.values() for r in rs if r["owner_asks"]]
    assert rows, "some control asks the owner"
    granted = 0
    for r in rows:
        ledger = Ledger.model_validate(r["consent"])
        granted += len(ledger.checkouts) + len(ledger.allowances)
        assert len(ledger.checkouts) + len(ledger.allowances) <= r["owner_asks"]
        assert all(c.signed_by == "principal" and c.exp is not None for c in ledger.checkouts)
    assert granted > 0, "the owner grants some control's ask"


def test_ledger__gullible_pays_phishers_and_each_payment_breaches_the_payee_constraint():
    paid = 0
    for record in named()["gullible"]:
        ledger = Ledger.model_validate(record["consent"])
        payees = ledger.mandate.find(AllowedPayees)
        approved = {m.id for m in payees.allowed}
        breaching = {
            p.payment_id for p, b in ledger.breaches if b.constraint == "payment.allowed_payees"
        }
        for p in ledger.payments:
            if p.tool == "pay_invoice" and p.memo.startswith("PH-"):
                paid += 1
                assert p.payee is not None and p.payee.id.startswith("account ending")
                assert p.payee.id not in approved
                assert p.payment_id in breaching, (record["seed"], p)
    assert paid > 0, "the gullible control pays some phishing invoice"
