"""Storefront v0's consent ledger reproduces its hidden-fee figures: on every control and
every public seed, the checker's breaches are the delivered trap orders' fees, one each,
for the fee, on the order's checkout (`transaction_id`)."""

from __future__ import annotations

import functools
from typing import Any

from checkout_consent.core.consent import Ledger
from checkout_consent.core.offline import play_and_grade
from checkout_consent.core.spec import parse_seeds
from checkout_consent.storefront import WORLD, dataset


@functools.cache
def _records() -> list[tuple[str, dict[str, Any]]]:
    return [
        (name, play_and_grade(WORLD, dataset.scenario(seed), policy))
        for name, policy in WORLD.controls.items()
        for seed in parse_seeds(dataset.PUBLIC_SEEDS)
    ]


def test_ledger__breaches_are_the_hidden_fees_paid_on_every_control_and_public_seed():
    for name, record in _records():
        ledger = Ledger.model_validate(record["consent"])
        breaches = ledger.breaches
        delivered = record["traps_total"] - record["traps_caught"]
        assert len(breaches) == delivered, (name, record["seed"])
        assert sum(p.payment_amount.amount for p, _ in breaches) == record["trap_cost_paid_cents"]
        assert {(b.constraint, b.mandate) for p, b in breaches} == {
            ("transaction_id", p.transaction_id) for p, _ in breaches
        }


def test_ledger__every_order_is_a_checkout_the_agent_signed_and_its_payment_is_within():
    for _, record in _records():
        ledger = Ledger.model_validate(record["consent"])
        verdicts = {v.payment_id: v for v in ledger.verdicts}
        orders = [p for p in ledger.payments if p.tool == "place_order"]
        assert len(orders) == len(ledger.checkouts)
        assert all(c.signed_by == "agent" for c in ledger.checkouts)
        assert all(verdicts[p.payment_id].within for p in orders)
        fees = [p for p in ledger.payments if p.tool == "hidden fee"]
        assert all(not verdicts[p.payment_id].within for p in fees)
