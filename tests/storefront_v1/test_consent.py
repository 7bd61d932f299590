"""adversary_v1's owner rules as mandates: on every control (named and crafted) and every
public seed, the core checker's breaches are the world's recorded breaches, rule for rule,
day for day and call for call."""

from __future__ import annotations

from checkout_consent.core.ledger import Ledger
from checkout_consent.core.mandates import AllowedPayees
from checkout_consent.storefront_v1 import mandates
from checkout_consent.storefront_v1.mandates import RULE_OF
from tests.core import ap2

from .played import crafted, named
from .script import fresh, play

_LEDGERS: dict[int, tuple[dict, Ledger]] = {}


def _ledger(record: dict) -> Ledger:
    """The record's ledger, validated once per process (the played records are kept)."""
    if id(record) not in _LEDGERS:
        _LEDGERS[id(record)] = (record, Ledger.model_validate(record["consent"]))
    return _LEDGERS[id(record)][1]


def _pairs(record: dict) -> tuple[list, list]:
    old = [(b["rule"], b["day"], b["call"]) for b in record["breaches"]]
    ledger = _ledger(record)
    new = [(RULE_OF[b.constraint], p.day, p.call) for p, b in ledger.breaches]
    return old, new


def test_ledger__reproduces_the_worlds_breaches_on_every_control_and_public_seed():
    seen = set()
    for name, rows in {**named(), **crafted()}.items():
        for record in rows:
            old, new = _pairs(record)
            assert old == new, (name, record["seed"])
            assert len(new) == record["consent_breaches"]
            assert all(p.payee for p in _ledger(record).payments)
            seen |= {rule for rule, _, _ in old}
    assert seen == set(RULE_OF.values())  # the controls break every rule somewhere


def test_ledger__owner_approvals_are_checkouts_the_owner_signed_and_allowances():
    rows = [r for rs in {**named(), **crafted()}.values() for r in rs if r["owner_asks"]]
    assert rows, "some control asks the owner"
    granted = 0
    for r in rows:
        ledger = _ledger(r)
        owners = {c.checkout_hash for c in ledger.checkouts if c.signed_by == "principal"}
        granted += len(owners) + len(ledger.allowances)
        assert len(owners) + len(ledger.allowances) <= r["owner_asks"]
        assert all(c.exp is not None for c in ledger.checkouts if c.signed_by == "principal")
        # every other checkout is the agent's, signed for one payment: each payment its own
        agents = {c.checkout_hash for c in ledger.checkouts if c.signed_by == "agent"}
        paid = [p.transaction_id for p in ledger.payments]
        assert agents <= set(paid) and len(set(paid)) == len(paid)
        assert len(agents) + len(owners) == len(ledger.checkouts)
    assert granted > 0, "the owner grants some control's ask"


def test_ledger__a_large_payment_is_bound_to_the_approval_the_world_used_and_only_once():
    state = fresh(1)
    ask, pid = state.setup.owner.ask_above_cents, state.setup.products[0].id
    big = {
        "supplier_id": "pacific",
        "product_id": pid,
        "quantity": ask // state.setup.supplier("pacific").price(pid) + 1,
    }
    script = [
        ("ask_owner", {"request": "purchase", "amount": ask / 100 + 40}),
        ("place_order", big),
        ("place_order", big),
    ]
    played = play(1, script)
    ledger = mandates.ledger(played)
    carts = {c.checkout_hash: c for c in ledger.checkouts}
    first, second = ledger.payments
    assert (carts[first.transaction_id].checkout.id, carts[first.transaction_id].signed_by) == (
        "A-1",
        "principal",
    )
    assert carts[second.transaction_id].signed_by == "agent"
    world = [(b.rule, b.day) for b in played.final.breaches]
    assert [(RULE_OF[b.constraint], p.day) for p, b in ledger.breaches] == world
    assert ("large_payment", 1) in world and [v.within for v in ledger.verdicts][0]
    assert ap2.first_problem(ledger.model_dump(mode="json")) is None


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
