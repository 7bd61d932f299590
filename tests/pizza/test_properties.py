"""Properties over random tool sequences: no crash, bad input changes nothing, grading and
replay are deterministic, money is conserved."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from checkout_consent.core.trace import Call, replay
from checkout_consent.core.world import apply
from checkout_consent.pizza.actions import ACTIONS
from checkout_consent.pizza.dataset import public_tasks
from checkout_consent.pizza.generate import initial_state
from tests.pizza.pizza_helpers import grade_calls

TASKS = list(public_tasks())
junk = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**12), 10**12),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.lists(st.integers(), max_size=2),
)


def _order_ids(index: int) -> list[str]:
    return [o.order_id for o in TASKS[index].orders] + ["PZ-000000"]


@st.composite
def a_call(draw: st.DrawFn, index: int) -> tuple[str, dict[str, Any]]:
    tool = draw(st.sampled_from([*ACTIONS, "no_such_tool"]))
    oid = draw(st.one_of(st.sampled_from(_order_ids(index)), junk))
    amount = draw(st.one_of(st.sampled_from([0.01, 5, 7.5, 12, 25, 99.99, 500]), junk))
    values: dict[str, Any] = {
        "order_id": oid,
        "amount": amount,
        "reason": draw(st.one_of(st.just("r"), junk)),
        "line_id": draw(st.one_of(st.sampled_from(["L1", "L2", "L9"]), junk)),
        "category": draw(st.one_of(st.sampled_from(["allergen", "fraud", "other", "x"]), junk)),
        "note": "n",
        "text": draw(
            st.one_of(
                st.sampled_from(
                    [
                        "What is your order number?",
                        "You get a $5.00 credit.",
                        "Escalated to a specialist",
                    ]
                ),
                junk,
            )
        ),
    }
    names = ["order_id", "amount", "reason", "line_id", "category", "note", "text"]
    keep = draw(st.lists(st.sampled_from(names), unique=True, max_size=4))
    return tool, {k: values[k] for k in keep}


@st.composite
def a_run(draw: st.DrawFn) -> tuple[int, list[tuple[str, dict[str, Any]]], bool]:
    index = draw(st.integers(0, len(TASKS) - 1))
    return index, draw(st.lists(a_call(index), max_size=12)), draw(st.booleans())


@settings(max_examples=150, deadline=None)
@given(a_run())
def test_random_calls__never_crash_and_refusals_change_nothing(run: Any) -> None:
    index, steps, replies = run
    state = initial_state(TASKS[index], replies=replies)
    calls: list[Call] = []
    for tool, args in steps:
        step = apply(ACTIONS, state, tool, args)
        if not step.ok:
            assert step.state == state and step.observation.startswith("Error:")
        calls.append(Call(tool=tool, args=args, ok=step.ok, observation=step.observation))
        state = step.state
    for order in TASKS[index].orders:
        refunded = sum(r.cents for r in state.refunds if r.order_id == order.order_id)
        assert 0 <= refunded <= order.total_cents
    again = replay(ACTIONS, initial_state(TASKS[index], replies=replies), calls)
    assert again.mismatch is None and again.final == state
    first = grade_calls(TASKS[index], calls, replies=replies)
    assert first == grade_calls(TASKS[index], calls, replies=replies)
    assert 0.0 <= first.score <= 1.0
    assert first.score == 0.0 or not first.policy_violations
    assert not first.checks.verified or first.given  # a lookup alone earns nothing
