"""Malformed tool calls (NaN and infinities included) through every family's actions, with
the other arguments valid: none crashes, changes the state or passes; and every stored
call round-trips through JSON exactly."""

from __future__ import annotations

import importlib
import json
import math
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from checkout_consent.core.family import Scenario, World
from checkout_consent.core.trace import Call
from checkout_consent.core.world import action_params, apply, argument_hint
from checkout_consent.families import WORLDS
from tests.rows import rows

BY_TYPE: dict[Any, Any] = {str: "ok", int: 1, float: 1.0}
NON_FINITE = [math.nan, math.inf, -math.inf, 1e300, -1e300, 10**13, -(10**13)]
WRONG_TYPE: dict[Any, list[Any]] = {
    str: [1, 2.5, True, None, [], {}, ["x"]],
    int: ["3", "x", True, None, [], {}, 2.5],
    float: [
        True,
        None,
        [],
        {"a": 1},
        "1,5",
        "1_0",
        "\u0661",
        "1e3",
        "nan",
        "inf",
        "$1.234",
        "9" * 40,
        "1" * 400,
    ],
}


_INITIAL: dict[str, Any] = {}


def first_scenario(spec: World) -> Scenario:
    task = getattr(importlib.import_module(f"checkout_consent.{spec.name}.task"), spec.name)
    sample = task(**dict(spec.dataset.public_args)).dataset[0]
    return Scenario.model_validate(sample.metadata["scenario"])


def initial(spec: World) -> Any:
    if spec.name not in _INITIAL:
        _INITIAL[spec.name] = spec.initial(first_scenario(spec))
    return _INITIAL[spec.name]


def base_args(spec: World, tool: str) -> dict[str, Any]:
    own = rows(spec.name)  # valid-looking values for arguments naming things in the world
    known = dict(own.known_args)
    if own.known_from_state is not None:
        known.update(own.known_from_state(initial(spec)))
    out = {}
    for p in action_params(spec.actions[tool]):
        if p.default is p.empty:
            out[p.name] = known.get(
                p.name, BY_TYPE.get(argument_hint(spec.actions[tool], p.name), "ok")
            )
    return out


BASES = {(spec.name, tool): base_args(spec, tool) for spec in WORLDS for tool in spec.actions}


@st.composite
def malformed(draw: st.DrawFn) -> tuple[World, str, dict[str, Any]]:
    spec = draw(st.sampled_from(WORLDS))
    tool = draw(st.sampled_from(sorted(spec.actions)))
    args = dict(BASES[spec.name, tool])
    params = [p.name for p in action_params(spec.actions[tool])]
    kind = draw(st.sampled_from(["value", "extra", "missing"] if params else ["extra"]))
    if kind == "extra":
        args[draw(st.sampled_from(["zz", "amount_cents", "__class__", ""]))] = draw(
            st.sampled_from(NON_FINITE + ["x"])
        )
    elif kind == "missing" and args:
        del args[draw(st.sampled_from(sorted(args)))]
    else:
        name = draw(st.sampled_from(params))
        hint = argument_hint(spec.actions[tool], name)
        args[name] = draw(st.sampled_from(NON_FINITE + WRONG_TYPE.get(hint, [])))
    if kind == "missing" and args == BASES[spec.name, tool]:  # nothing was required
        args["zz"] = math.nan
    return spec, tool, args


@given(malformed())
def test_actions__malformed_calls_are_refused_without_a_change(case):
    spec, tool, args = case
    state = initial(spec)
    step = apply(spec.actions, state, tool, args)  # must not raise
    assert not step.ok, (spec.name, tool, args, step.observation)
    assert step.state is state and step.observation.startswith("Error: ")


@given(
    st.sampled_from(WORLDS).flatmap(
        lambda spec: st.tuples(st.just(spec), st.sampled_from(sorted(spec.actions)))
    )
)
def test_actions__the_valid_base_call_is_well_formed(pair):
    """The base arguments are of the declared types (so the refusals above are the
    malformed argument's doing, not the base's)."""
    spec, tool = pair
    step = apply(spec.actions, initial(spec), tool, base_args(spec, tool))
    assert "must be" not in step.observation.split("\n")[0] or step.ok


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4)
    ),
    max_leaves=12,
)


@given(st.sampled_from(WORLDS), st.dictionaries(st.text(max_size=8), json_values, max_size=4))
def test_trace__every_stored_call_round_trips_through_json_exactly(spec, args):
    tool = sorted(spec.actions)[0]
    step = apply(spec.actions, initial(spec), tool, args)
    call = Call(tool=tool, args=args, ok=step.ok, observation=step.observation)
    text = json.dumps(call.model_dump(mode="json"), allow_nan=False)
    again = Call.model_validate(json.loads(text))
    assert json.dumps(again.model_dump(mode="json"), allow_nan=False) == text
    assert repr(again.args) == repr(call.args)  # NaN stays NaN, 1.0 stays a float
