"""The grader: the replayed jar against its invoice."""

from __future__ import annotations

from typing import Any

from checkout_consent.coinjar.record import Paid
from checkout_consent.core import Replay, Scenario, Turns


def grade(scenario: Scenario, replay: Replay[Any], turns: Turns) -> Paid:
    paid, owed = replay.final.paid_cents, replay.initial.invoice_cents
    return Paid(
        task_id=scenario.scenario_id,
        world_version="coinjar-1",
        paid_cents=paid,
        score=float(paid == owed),
    )


def metrics(record: Paid) -> dict[str, float]:
    return {"score": record.score}


def explain(record: Paid) -> str:
    return f"paid {record.paid_cents} cents; score {record.score}"
