"""The replay scorer's checks without an Inspect run: the scenario reference, hostile Store
contents, and reconciling a trace with the conversation (core/reconcile.py)."""

from __future__ import annotations

import math
from typing import Any

import pytest

from checkout_consent.core.offline import play
from checkout_consent.core.reconcile import ModelCall, first_difference, same
from checkout_consent.core.trace import Call
from checkout_consent.families import WORLDS
from checkout_consent.runtime.scorer import IntegrityError, checked_scenario, judge, metric_names
from checkout_consent.storefront import WORLD
from tests.rows import rows

REF = {
    "family": "storefront",
    "scenario_id": "adversary_v0",
    "seed": 2,
    "params": {},
    "version": WORLD.version,
}


def test_metric_names__are_the_keys_of_a_real_record_in_every_family():
    for world in WORLDS:
        scenario = world.dataset.rebuild(world.dataset.task(_item(world)))
        control = world.controls[world.controls.sanity[0]]
        record = world.grade(scenario, _replayed(world, scenario, control), ())
        assert metric_names(world) == tuple(world.metrics(record)) != (), world.name


def test_rebuild__gives_back_every_familys_packaged_references():
    for world in WORLDS:
        scenario = world.dataset.task(_item(world))
        assert world.dataset.rebuild(scenario) == scenario, world.name


def _item(world: Any) -> str:
    return rows(world.name).task  # a public task id of the world (tests/<world>/rows.py)


def _replayed(world: Any, scenario: Any, control: Any) -> Any:
    from checkout_consent.core.trace import replay

    return replay(world.actions, world.initial(scenario), play(world, scenario, control).calls)


@pytest.mark.parametrize(
    "edit, why",
    [
        ({"version": 1}, "storefront-1 is unknown"),
        ({"version": None}, "unknown"),
        ({"params": {"answer": "cancel everything"}}, "differs from the packaged one"),
        ({"scenario_id": "../../etc/passwd"}, "not a task name"),
        ({"scenario_id": "nosuch"}, "names no packaged task"),
        ({"family": "pizza"}, "not storefront"),
        ({"seed": "two"}, "malformed"),
        ({"extra": 1}, "malformed"),
    ],
)
def test_checked_scenario__refuses_what_the_packaged_tasks_do_not_give(edit, why):
    carried = {**REF, **edit}
    with pytest.raises(IntegrityError, match=why):
        checked_scenario(WORLD, "seed-2", carried, carried)


def test_checked_scenario__the_sample_id_and_store_copy_must_agree():
    with pytest.raises(IntegrityError, match="does not name"):
        checked_scenario(WORLD, "seed-3", REF, REF)
    with pytest.raises(IntegrityError, match="Store's scenario"):
        checked_scenario(WORLD, "seed-2", REF, {**REF, "seed": 3})
    assert checked_scenario(WORLD, "seed-2", REF, REF).seed == 2


@pytest.mark.parametrize(
    "store",
    [
        {},
        {"scenario": REF, "calls": "x", "generations": []},
        {"scenario": REF, "calls": [{"tool": 1}], "generations": []},
        {"scenario": REF, "calls": [], "generations": [7]},
        {"scenario": REF, "calls": [None], "generations": []},
    ],
)
def test_judge__hostile_store_contents_are_a_failure_not_a_crash(store):
    judged = judge(WORLD, "seed-2", {"scenario": REF}, store, [])
    assert judged.record is None and judged.failure


def _seen(
    turn: int,
    tool: str,
    args: dict[str, Any],
    shown: str,
    error: bool = False,
    reached: bool = True,
) -> ModelCall:
    return ModelCall(turn, tool, args, shown, error, reached)


def _call(
    tool: str, args: dict[str, Any], observation: str, ok: bool = True, origin: str = "agent"
) -> Call:
    return Call(tool=tool, args=args, ok=ok, observation=observation, origin=origin)  # type: ignore[arg-type]


ACTIONS = WORLD.actions
NOTE_A, NOTE_B = (
    _call("take_note", {"text": "a"}, "Noted (1)."),
    _call("take_note", {"text": "b"}, "Noted (2)."),
)
CLOSE = _call("end_day", {}, "Day closed.", origin="solver")


def _diff(calls: list[Call], seen: list[ModelCall]) -> str | None:
    return first_difference(calls, seen, ACTIONS, solver_tools=("end_day",))


def test_reconcile__a_faithful_trace_with_solver_closes_passes():
    seen = [
        _seen(0, "take_note", {"text": "a"}, "Noted (1)."),
        _seen(1, "take_note", {"text": "b"}, "Noted (2)."),
    ]
    assert _diff([NOTE_A, CLOSE, NOTE_B, CLOSE], seen) is None


def test_reconcile__within_one_turn_calls_may_finish_in_any_order():
    seen = [
        _seen(0, "take_note", {"text": "b"}, "Noted (2)."),
        _seen(0, "take_note", {"text": "a"}, "Noted (1)."),
    ]
    assert _diff([NOTE_A, NOTE_B], seen) is None


@pytest.mark.parametrize(
    "calls, seen, why",
    [
        (
            [NOTE_A, NOTE_B],
            [_seen(0, "take_note", {"text": "a"}, "Noted (1).")],
            "never made by the model",
        ),
        (
            [NOTE_A],
            [
                _seen(0, "take_note", {"text": "a"}, "Noted (1)."),
                _seen(1, "take_note", {"text": "b"}, "Noted (2)."),
            ],
            "missing from the trace",
        ),
        (
            [NOTE_B, NOTE_A],
            [
                _seen(0, "take_note", {"text": "a"}, "Noted (1)."),
                _seen(1, "take_note", {"text": "b"}, "Noted (2)."),
            ],
            "call 0",
        ),
        ([NOTE_A], [_seen(0, "take_note", {"text": "a"}, "Noted (9).")], "call 0"),
        ([NOTE_A], [_seen(0, "take_note", {"text": "a"}, "Noted (1).", error=True)], "call 0"),
        ([NOTE_A], [_seen(0, "take_note", {"text": "A"}, "Noted (1).")], "call 0"),
        ([_call("take_note", {"text": "a"}, "Noted (1).", origin="solver")], [], "solver"),
        ([_call("end_day", {"x": 1}, "Day closed.", origin="solver")], [], "solver"),
    ],
)
def test_reconcile__any_difference_names_the_first_differing_call(calls, seen, why):
    assert why in (_diff(calls, seen) or "")


def test_reconcile__calls_inspect_refused_before_the_tool_are_not_traced():
    seen = [
        _seen(0, "nosuch", {}, "Tool nosuch not found", error=True, reached=False),
        _seen(0, "take_note", {"text": "a"}, "Noted (1)."),
    ]
    assert _diff([NOTE_A], seen) is None


def test_reconcile__defaults_and_harness_arguments_may_be_filled_in():
    from checkout_consent.shopkit import WORLD as SHOPKIT

    traced = _call("view_file", {"path": "a.py", "start_line": 1, "end_line": 0}, "x")
    run = _call("run_cli", {"args": "stock", "result": {"exit_code": 0, "output": ""}}, "y")
    seen = [
        _seen(0, "view_file", {"path": "a.py"}, "x"),
        _seen(1, "run_cli", {"args": "stock"}, "y"),
    ]
    assert (
        first_difference(
            [traced, run], seen, SHOPKIT.actions, solver_tools=(), harness=SHOPKIT.harness_args
        )
        is None
    )
    assert first_difference([traced, run], seen, SHOPKIT.actions, solver_tools=()) is not None
    other = _call("view_file", {"path": "a.py", "start_line": 5}, "x")
    assert first_difference([other], seen[:1], SHOPKIT.actions, solver_tools=()) is not None


def test_same__numbers_by_value_booleans_apart_nan_and_the_logs_null():
    assert same(5, 5.0) and same([1, {"a": 2}], [1.0, {"a": 2}])
    assert not same(True, 1) and not same(1, "1") and not same({"a": 1}, {"b": 1})
    assert same(math.nan, math.nan) and same(None, math.inf) and not same(None, 0.0)
