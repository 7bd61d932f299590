"""The tasks: two invoices, by task id."""

from __future__ import annotations

from checkout_consent.coinjar.generate import generate
from checkout_consent.coinjar.state import State
from checkout_consent.core import Scenario

INVOICES = {"small": 1250, "large": 98_000}  # task id -> the invoice, in cents


def scenario(task_id: str) -> Scenario:
    if task_id not in INVOICES:
        raise KeyError(f"no coinjar task {task_id[:60]!r}")
    return Scenario(world="coinjar", scenario_id=task_id, seed=0)


def initial(ref: Scenario) -> State:
    return generate(INVOICES[ref.scenario_id])
