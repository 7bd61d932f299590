"""The controls, played offline against the pure world (no Inspect): they bracket the range,
and they find their task through the scenario, never through the text."""

from __future__ import annotations

from typing import Any

import pytest

from checkout_consent.core.controls import Msg
from checkout_consent.core.offline import play, play_and_grade
from checkout_consent.pizza import WORLD
from checkout_consent.pizza.authoring import seed_table
from checkout_consent.pizza.dataset import scenario_of
from checkout_consent.pizza.state import Task

BAD = {
    "before-lookup": "action_before_verification",
    "duplicate": "duplicate_side_effect",
    "over-cap": "cap_breach",
    "mixed": "mixed_remedy",
}


def _records(name: str, tasks: list[Task], replies: bool = True) -> list[dict[str, Any]]:
    return [
        play_and_grade(WORLD, scenario_of(t, replies=replies), WORLD.controls[name]) for t in tasks
    ]


@pytest.mark.parametrize("replies", [True, False])
def test_reference__scores_every_task_in_full(tasks: list[Task], replies: bool) -> None:
    records = _records("reference", tasks, replies)
    assert [r["score"] for r in records] == [1.0] * len(tasks)
    assert {r["replies"] for r in records} == {replies}


def test_noop__scores_zero(tasks: list[Task]) -> None:
    assert {r["score"] for r in _records("noop", tasks)} == {0.0}


def test_mock__passes_some_tasks_and_fails_others(tasks: list[Task]) -> None:
    scores = [r["score"] for r in _records("mock", tasks)]
    # The mock must give at least one full pass and at least one zero (as the seed's does).
    assert {0.0, 1.0} <= set(scores)
    assert 0.0 < sum(scores) / len(scores) < 1.0


def test_mock__follows_its_one_sentence_rule(tasks: list[Task]) -> None:
    # the policy where no money is owed, the customer's demand (a cap breach) where it is
    for task, record in zip(tasks, _records("mock", tasks), strict=True):
        money = task.expected.remedy in ("refund", "credit")
        assert (record["score"], "cap_breach" in record["policy_violations"]) == (
            (0.0, True) if money else (1.0, False)
        ), task.task_id


def test_mock__reproduces_the_seeds_printout() -> None:
    ci = seed_table.mock_interval()
    assert seed_table.printout(ci)[1:] == seed_table.SEED_PRINTOUT[1:]


def test_seed_table__the_readme_matches_a_fresh_run() -> None:
    assert seed_table.main(["--check"]) == 0


def test_seed_table__differs_from_the_seed_only_where_it_says_why() -> None:
    for row in seed_table.rows(seed_table.mock_interval()):
        assert row.why != "none" or row.seed == row.ours, row.figure


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_control__scores_zero_naming_its_violation(tasks: list[Task], name: str) -> None:
    for record in _records(name, tasks):
        assert record["score"] == 0.0 and BAD[name] in record["policy_violations"], record[
            "task_id"
        ]


def test_reference__asks_for_a_withheld_id_before_looking_up(tasks: list[Task]) -> None:
    task = next(t for t in tasks if not t.complaint.gives_id)
    calls = play(WORLD, scenario_of(task), WORLD.controls["reference"]).calls
    assert [c.tool for c in calls[:2]] == ["message_customer", "lookup_order"]
    assert task.complaint.order_id in calls[0].observation
    silent = play(WORLD, scenario_of(task, replies=False), WORLD.controls["reference"]).calls
    assert silent[0].tool == "lookup_order"  # without replies the complaint names the id


def test_control__reads_its_task_from_the_scenario_not_the_text(tasks: list[Task]) -> None:
    named = [t for t in tasks if t.complaint.gives_id][:2]
    text = [Msg("system", "desk"), Msg("user", "a complaint that names no task")]
    for task in named:  # the same text, two scenarios: each control acts on its own task
        first = WORLD.controls["reference"](scenario_of(task), text)
        assert first.calls == (("lookup_order", {"order_id": task.complaint.order_id}),)


def test_controls__are_the_sanity_set_and_the_hacker() -> None:
    assert set(WORLD.controls) == {*WORLD.controls.sanity, "hacker"}  # its exploits: sanity
    assert WORLD.controls.reference in WORLD.controls
