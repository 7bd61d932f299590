"""The controls, played offline against the pure world (no Inspect): they bracket the range."""

from __future__ import annotations

import pytest

from checkout_consent.core.controls import ControlRegistry, Msg
from checkout_consent.pizza.controls import register
from checkout_consent.pizza.grader import PizzaRecord
from checkout_consent.pizza.simulate import play, run_offline
from checkout_consent.pizza.state import Task

BAD = {"before-lookup": "action_before_verification", "duplicate": "duplicate_side_effect",
       "over-cap": "cap_breach", "mixed": "mixed_remedy"}


@pytest.fixture(scope="module")
def registry() -> ControlRegistry:
    reg = ControlRegistry()
    register(reg)
    return reg


def _records(registry: ControlRegistry, name: str, tasks: list[Task],
             replies: bool = True) -> list[PizzaRecord]:
    return run_offline(registry.get(f"pizza-{name}"), tasks, replies=replies)


@pytest.mark.parametrize("replies", [True, False])
def test_reference__scores_every_task_in_full(registry: ControlRegistry, tasks: list[Task],
                                              replies: bool) -> None:
    records = _records(registry, "reference", tasks, replies)
    assert [r.score for r in records] == [1.0] * len(tasks)


def test_noop__scores_zero(registry: ControlRegistry, tasks: list[Task]) -> None:
    assert {r.score for r in _records(registry, "noop", tasks)} == {0.0}


def test_mock__passes_some_tasks_and_fails_others(registry: ControlRegistry,
                                                  tasks: list[Task]) -> None:
    scores = [r.score for r in _records(registry, "mock", tasks)]
    # The mock must give at least one full pass and at least one zero (as the seed's does).
    assert {0.0, 1.0} <= set(scores)
    assert 0.0 < sum(scores) / len(scores) < 1.0


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_control__scores_zero_naming_its_violation(registry: ControlRegistry,
                                                       tasks: list[Task], name: str) -> None:
    for record in _records(registry, name, tasks):
        assert record.score == 0.0 and BAD[name] in record.policy_violations, record.task_id


def test_reference__asks_for_a_withheld_id_before_looking_up(registry: ControlRegistry,
                                                             tasks: list[Task]) -> None:
    task = next(t for t in tasks if not t.complaint.gives_id)
    calls = play(registry.get("pizza-reference"), task)
    assert [c.tool for c in calls[:2]] == ["message_customer", "lookup_order"]
    assert task.complaint.order_id in calls[0].observation


def test_control__without_a_task_tag_it_just_replies(registry: ControlRegistry) -> None:
    reply = registry.get("pizza-reference")([Msg("user", "hello")])
    assert reply.calls == () and reply.text
