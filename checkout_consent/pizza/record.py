"""The graded record of one pizza sample (domain only: no model, epoch, tokens or costs)."""

from __future__ import annotations

from checkout_consent.core import FrozenRecord, Ledger
from checkout_consent.pizza.state import Remedy


class Checks(FrozenRecord):
    remedy: bool  # the policy's remedy class, on the right order (line / category too)
    amount: bool  # a remedy was given and the money moved is exactly the policy amount
    verified: bool  # the complaint's order was looked up before any action
    message: bool  # a message after the last remedy states it (word and amount)


class PizzaRecord(FrozenRecord):
    """One graded sample: what `run --json` prints per task."""

    task_id: str
    template: str
    score: float
    checks: Checks
    policy_violations: list[str]
    expected_remedy: Remedy
    expected_amount_cents: int
    given: list[str]  # the remedies given, e.g. ["credit $5.00 on PZ-123456"]
    calls: int
    failed_calls: int
    replies: bool
    world_version: str = ""  # stamped from eval.yaml by World.graded, never by a grader
    consent: Ledger  # the refund policy as a mandate, each refund and credit checked
