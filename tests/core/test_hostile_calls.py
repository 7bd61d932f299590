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

from checkout_consent.core.contract import World
from checkout_consent.core.scenario import Scenario
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


def first_scenario(world: World) -> Scenario:
    task = getattr(importlib.import_module(f"checkout_consent.{world.name}.task"), world.name)
    sample = task(**dict(world.dataset.public_args)).dataset[0]
    return Scenario.model_validate(sample.metadata["scenario"])


def initial(world: World) -> Any:
    if world.name not in _INITIAL:
        _INITIAL[world.name] = world.initial(first_scenario(world))
    return _INITIAL[world.name]


def base_args(world: World, tool: str) -> dict[str, Any]:
    own = rows(world.name)  # valid-looking values for arguments naming things in the world
    known = dict(own.known_args)
    if own.known_from_state is not None:
        known.update(own.known_from_state(initial(world)))
    out = {}
    for p in action_params(world.actions[tool]):
        if p.default is p.empty:
            out[p.name] = known.get(
                p.name, BY_TYPE.get(argument_hint(world.actions[tool], p.name), "ok")
            )
    return out


BASES = {(world.name, tool): base_args(world, tool) for world in WORLDS for tool in world.actions}


@st.composite
def malformed(draw: st.DrawFn) -> tuple[World, str, dict[str, Any]]:
    world = draw(st.sampled_from(WORLDS))
    tool = draw(st.sampled_from(sorted(world.actions)))
    args = dict(BASES[world.name, tool])
    params = [p.name for p in action_params(world.actions[tool])]
    kind = draw(st.sampled_from(["value", "extra", "missing"] if params else ["extra"]))
    if kind == "extra":
        args[draw(st.sampled_from(["zz", "amount_cents", "__class__", ""]))] = draw(
            st.sampled_from(NON_FINITE + ["x"])
        )
    elif kind == "missing" and args:
        del args[draw(st.sampled_from(sorted(args)))]
    else:
        name = draw(st.sampled_from(params))
        hint = argument_hint(world.actions[tool], name)
        args[name] = draw(st.sampled_from(NON_FINITE + WRONG_TYPE.get(hint, [])))
    if kind == "missing" and args == BASES[world.name, tool]:  # nothing was required
        args["zz"] = math.nan
    return world, tool, args


@given(malformed())
def test_actions__malformed_calls_are_refused_without_a_change(case):
    world, tool, args = case
    state = initial(world)
    step = apply(world.actions, state, tool, args)  # must not raise
    assert not step.ok, (world.name, tool, args, step.observation)
    assert step.state is state and step.observation.startswith("Error: ")


@given(
    st.sampled_from(WORLDS).flatmap(
        lambda world: st.tuples(st.just(world), st.sampled_from(sorted(world.actions)))
    )
)
def test_actions__the_valid_base_call_is_well_formed(pair):
    """The base arguments are of the declared types (so the refusals above are the
    malformed argument's doing, not the base's)."""
    world, tool = pair
    step = apply(world.actions, initial(world), tool, base_args(world, tool))
    assert "must be" not in step.observation.split("\n")[0] or step.ok


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4)
    ),
    max_leaves=12,
)


@given(st.sampled_from(WORLDS), st.dictionaries(st.text(max_size=8), json_values, max_size=4))
def test_trace__every_stored_call_round_trips_through_json_exactly(world, args):
    tool = sorted(world.actions)[0]
    step = apply(world.actions, initial(world), tool, args)
    call = Call(tool=tool, args=args, ok=step.ok, observation=step.observation)
    text = json.dumps(call.model_dump(mode="json"), allow_nan=False)
    again = Call.model_validate(json.loads(text))
    assert json.dumps(again.model_dump(mode="json"), allow_nan=False) == text
    assert repr(again.args) == repr(call.args)  # NaN stays NaN, 1.0 stays a float
