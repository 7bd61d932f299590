"""Shopkit actions: pure transitions over the file tree; refusals leave state untouched."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from checkout_consent.core.trace import Call, replay
from checkout_consent.core.world import apply
from checkout_consent.shopkit import WORLD, dataset
from checkout_consent.shopkit.dataset import build_tree, scenario
from checkout_consent.shopkit.state import State

ACTIONS = WORLD.actions


@pytest.fixture
def state() -> State:
    return WORLD.initial(scenario("T1"))


def test_generate__starts_from_the_seed_with_the_task_brief(state: State) -> None:
    assert state.files == build_tree("seed") and state.task == "T1"
    assert "fmt" in state.brief and not state.runs and not state.finished


def test_generate__a_given_brief_replaces_the_tasks_own() -> None:
    assert WORLD.initial(scenario("T5", "Make it better.")).brief == "Make it better."


def test_dataset__a_scenario_is_a_reference_the_dataset_resolves() -> None:
    assert scenario("T2").params == {} and scenario("T2", "Do X.").params == {"brief": "Do X."}
    assert dataset.resolve(scenario("T2")).brief == dataset.brief("T2")
    with pytest.raises(ValueError, match="public knobs"):
        dataset.resolve(scenario("T2").model_copy(update={"params": {"seed_tree": {}}}))
    with pytest.raises(KeyError):
        scenario("T9")


def test_list_files__shows_every_path(state: State) -> None:
    step = apply(ACTIONS, state, "list_files", {})
    assert step.ok and all(p in step.observation for p, _ in state.files)


def test_view_file__numbers_lines_and_honours_a_range(state: State) -> None:
    step = apply(
        ACTIONS, state, "view_file", {"path": "shopkit/money.py", "start_line": 3, "end_line": 3}
    )
    third = state.tree()["shopkit/money.py"].splitlines()[2]
    assert step.ok and step.observation.splitlines()[1].endswith(third)


def test_write_file__creates_and_replaces(state: State) -> None:
    step = apply(ACTIONS, state, "write_file", {"path": "notes/a.txt", "content": "hi"})
    assert step.ok and step.state.tree()["notes/a.txt"] == "hi" and step.state.edits == 1
    assert "notes/a.txt" not in state.tree()


def test_edit_file__replaces_one_unique_passage(state: State) -> None:
    step = apply(
        ACTIONS,
        state,
        "edit_file",
        {"path": "shopkit/reports.py", "old_text": "due <= today", "new_text": "due < today"},
    )
    assert step.ok and "due < today" in step.state.tree()["shopkit/reports.py"]
    assert "due <= today" in state.tree()["shopkit/reports.py"]


@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("view_file", {"path": "nope.py"}),
        ("view_file", {"path": "../etc/passwd"}),
        ("write_file", {"path": "/etc/passwd", "content": "x"}),
        ("write_file", {"path": "a/../../b", "content": "x"}),
        ("write_file", {"path": "big.txt", "content": "x" * 100_001}),
        ("write_file", {"path": ".", "content": "x"}),
        ("write_file", {"path": "shopkit", "content": "x"}),
        ("write_file", {"path": "shopkit/money.py/inner.py", "content": "x"}),
        ("write_file", {"path": "a\nb.py", "content": "x"}),
        ("write_file", {"path": "shopkit/./x.py", "content": "x"}),
        ("edit_file", {"path": "shopkit/money.py", "old_text": "return", "new_text": "x"}),
        ("edit_file", {"path": "shopkit/money.py", "old_text": "", "new_text": "x"}),
        ("edit_file", {"path": "shopkit/money.py", "old_text": "no such text", "new_text": "x"}),
        ("run_cli", {"args": "total O1"}),
        ("run_cli", {"args": "'unclosed", "result": {"exit_code": 0, "output": ""}}),
        ("run_python", {"code": "print(1)", "result": "forged"}),
        ("finish", {}),
    ],
)
def test_actions__refusals_leave_the_state_untouched(
    state: State, tool: str, args: dict[str, Any]
) -> None:
    step = apply(ACTIONS, state, tool, args)
    assert not step.ok and step.state is state and step.observation.startswith("Error:")


def test_run_cli__records_and_shows_the_given_result(state: State) -> None:
    result = {"exit_code": 2, "output": "error: no order O9\n"}
    step = apply(ACTIONS, state, "run_cli", {"args": "total O9", "result": result})
    assert step.ok and "exit code 2" in step.observation and "no order O9" in step.observation
    assert step.state.runs[0].exit_code == 2 and step.state.files == state.files


def test_run_python__a_timeout_is_shown_as_stopped(state: State) -> None:
    step = apply(
        ACTIONS,
        state,
        "run_python",
        {"code": "while True: pass", "result": {"exit_code": None, "output": ""}},
    )
    assert step.ok and "timed out" in step.observation and step.state.runs[0].exit_code is None


def test_finish__refuses_later_changes(state: State) -> None:
    done = apply(ACTIONS, state, "finish", {"summary": "done"}).state
    assert done.finished
    assert not apply(ACTIONS, done, "write_file", {"path": "x", "content": "y"}).ok


CALLS = st.one_of(
    st.builds(
        lambda p, c: ("write_file", {"path": p, "content": c}),
        st.sampled_from(["shopkit/money.py", "a.txt", "../x", "data/orders.json"]),
        st.text(max_size=20),
    ),
    st.builds(
        lambda o, n: ("edit_file", {"path": "shopkit/money.py", "old_text": o, "new_text": n}),
        st.sampled_from(["math.floor", "return", "sign", "zzz"]),
        st.text(max_size=5),
    ),
    st.builds(
        lambda a, c: ("run_cli", {"args": a, "result": {"exit_code": c, "output": a}}),
        st.sampled_from(["total O1", "stock", "'bad"]),
        st.none() | st.integers(0, 3),
    ),
    st.just(("list_files", {})),
    st.just(("finish", {"summary": "ok"})),
)


@settings(max_examples=60, deadline=None)
@given(st.lists(CALLS, max_size=12))
def test_replay__equals_live_play_for_any_call_sequence(calls: list[tuple[str, dict]]) -> None:
    state, recorded = WORLD.initial(scenario("T4")), []
    for tool, args in calls:
        step = apply(ACTIONS, state, tool, args)
        recorded.append(Call(tool=tool, args=args, ok=step.ok, observation=step.observation))
        state = step.state
    result = replay(ACTIONS, WORLD.initial(scenario("T4")), recorded)
    assert result.mismatch is None and result.final == state
