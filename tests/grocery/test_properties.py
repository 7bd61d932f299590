"""Properties: random call sequences are deterministic and never crash; refusals and
malformed arguments leave the state unchanged."""

from __future__ import annotations

import math
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from checkout_consent.core.world import apply
from checkout_consent.grocery import dataset, initial
from checkout_consent.grocery.actions import ACTIONS
from tests.grocery.helpers import grade, run_calls, scenario

SKUS = ["G00000", "G00006", "G00008", "G00026", "G00042", "G02211", "g00001", "nope"]
WEIRD = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**30), 10**30),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30),
    st.just("x" * 100_000),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)
VALUES = {
    "sku": st.one_of(st.sampled_from(SKUS), WEIRD),
    "quantity": st.one_of(st.integers(-2, 60), WEIRD),
    "query": st.one_of(st.sampled_from(["apples", "organic eggs", "", "chips"]), WEIRD),
    "item": st.one_of(st.sampled_from(["cilantro", "black beans", "caviar"]), WEIRD),
    "dish": st.one_of(st.sampled_from(["tacos", "chili", ""]), WEIRD),
}


@st.composite
def calls(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    tool = draw(st.sampled_from(sorted(ACTIONS)))
    names = draw(
        st.lists(
            st.sampled_from(
                [
                    "sku",
                    "quantity",
                    "query",
                    "item",
                    "dish",
                    "reason",
                    "question",
                    "max_price",
                    "bogus",
                ]
            ),
            max_size=4,
            unique=True,
        )
    )
    return tool, {n: draw(VALUES.get(n, WEIRD)) for n in names}


@given(st.lists(calls(), max_size=12), st.sampled_from(dataset.PUBLIC_IDS))
def test_world__random_sequences_are_deterministic_and_never_crash(
    steps: list[tuple[str, dict[str, Any]]], task: str
) -> None:
    sc = scenario(task)
    first, second = run_calls(sc, steps), run_calls(sc, steps)
    assert first.mismatch is None and second.mismatch is None
    assert [s.observation for s in first.steps] == [s.observation for s in second.steps]
    assert first.final.cart == second.final.cart
    assert grade(sc, first) == grade(sc, second)


@given(st.lists(calls(), max_size=10))
def test_world__every_refusal_leaves_the_state_unchanged(
    steps: list[tuple[str, dict[str, Any]]],
) -> None:
    state = initial(scenario("out-of-stock-week"))
    for tool, args in steps:
        step = apply(ACTIONS, state, tool, args)
        if not step.ok:
            assert step.state is state and step.observation.startswith("Error:")
        state = step.state


@given(
    st.sampled_from(
        [
            "add_to_cart",
            "update_cart",
            "view_product",
            "remove_from_cart",
            "search_catalog",
            "explain_substitution",
            "flag_omission",
            "ask_user",
        ]
    ),
    WEIRD,
    WEIRD,
)
def test_world__malformed_arguments_never_crash_or_change_state(tool: str, a: Any, b: Any) -> None:
    state = initial(scenario("sale-week"))
    before = state.cart
    params = [
        p
        for p in ("sku", "quantity", "query", "item", "question", "reason")
        if p in ACTIONS[tool].__code__.co_varnames[: ACTIONS[tool].__code__.co_argcount]
    ]
    args = dict(zip(params, (a, b, a, b), strict=False))
    step = apply(ACTIONS, state, tool, args)
    if isinstance(a, float) and not math.isfinite(a) and "quantity" in args:
        assert not step.ok
    if not step.ok:
        assert step.state is state and state.cart == before
