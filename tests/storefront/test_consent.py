"""Storefront v0's consent ledger reproduces its hidden-fee figures: on every control and
every public seed, the checker's breaches are the delivered trap orders' fees, one each,
for the fee, each bound to the explicit entry of a charge nobody on the owner's side signed
(`transaction_id`)."""

from __future__ import annotations

import functools
from typing import Any

from checkout_consent.core.consent import Ledger
from checkout_consent.core.offline import play_and_grade
from checkout_consent.core.task_args import parse_seeds
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
        carts = {c.checkout_hash: c for c in ledger.checkouts}
        assert {(b.constraint, b.mandate, b.party) for p, b in breaches} == {
            ("transaction_id", carts[p.transaction_id].checkout.id, "counterparty")
            for p, _ in breaches
        }
        assert all(carts[p.transaction_id].signed_by == "nobody" for p, _ in breaches)


def test_ledger__every_order_is_a_checkout_the_agent_signed_and_its_payment_is_within():
    for _, record in _records():
        ledger = Ledger.model_validate(record["consent"])
        verdicts = {v.payment_id: v for v in ledger.verdicts}
        orders = [p for p in ledger.payments if p.tool == "place_order"]
        agents = [c for c in ledger.checkouts if c.signed_by == "agent"]
        assert len(orders) == len(agents)
        assert {p.transaction_id for p in orders} == {c.checkout_hash for c in agents}
        assert all(verdicts[p.payment_id].within for p in orders)
        fees = [p for p in ledger.payments if p.tool == "hidden fee"]
        assert all(not verdicts[p.payment_id].within for p in fees)
