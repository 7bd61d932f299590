"""The refund policy as the business's mandate: on every control and every public task
(replies on and off), the core checker finds a breach exactly when the grader finds its
`cap_breach`, and every refund and credit issued is a payment of the ledger."""

from __future__ import annotations

import pytest

from checkout_consent.core.consent import Ledger
from checkout_consent.core.offline import play_and_grade
from checkout_consent.pizza import WORLD
from checkout_consent.pizza.dataset import scenario_of
from checkout_consent.pizza.state import Task


@pytest.mark.parametrize("replies", [True, False])
def test_ledger__breach_is_the_cap_breach_on_every_control_and_public_task(
    tasks: list[Task], replies: bool
) -> None:
    seen = set()
    for name, policy in WORLD.controls.items():
        for task in tasks:
            record = play_and_grade(WORLD, scenario_of(task, replies=replies), policy)
            ledger = Ledger.model_validate(record["consent"])
            cap = "cap_breach" in record["policy_violations"]
            assert bool(ledger.breaches) == cap, (name, task.task_id)
            money = [g for g in record["given"] if g.startswith(("refund", "credit"))]
            assert len(ledger.payments) == len(money)
            seen.add(cap)
    assert seen == {True, False}
