from dataclasses import dataclass

import pytest

from checkout_consent.core.trace import Call, replay
from checkout_consent.core.world import ActionError, Outcome, apply, evolve


@dataclass(frozen=True)
class Counter:
    n: int = 0


def add(state: Counter, k: int, note: str = "") -> Outcome[Counter]:
    """Add k."""
    if k < 0:
        raise ActionError("k must not be negative")
    return Outcome(evolve(state, n=state.n + k), f"now {state.n + k}")


def boom(state: Counter) -> Outcome[Counter]:
    """A bug."""
    raise RuntimeError("bug")


ACTIONS = {"add": add, "boom": boom}


def test_apply__success_gives_new_state_and_observation():
    step = apply(ACTIONS, Counter(), "add", {"k": 2})
    assert step.ok and step.state == Counter(2) and step.observation == "now 2"


@pytest.mark.parametrize(
    "tool, args, message",
    [
        ("add", {"k": -1}, "negative"),
        ("nope", {}, "unknown tool"),
        ("add", {}, "missing argument(s): k"),
        ("add", {"k": 1, "extra": 2}, "unexpected argument(s): extra"),
        ("add", [1], "arguments must be an object"),
    ],
)
def test_apply__domain_errors_leave_state_unchanged(tool, args, message):
    start = Counter(5)
    step = apply(ACTIONS, start, tool, args)
    assert not step.ok and step.state is start and message in step.observation


def test_apply__other_exceptions_are_bugs_and_propagate():
    with pytest.raises(RuntimeError):
        apply(ACTIONS, Counter(), "boom", {})


def test_evolve__copies_without_touching_the_original():
    a = Counter(1)
    b = evolve(a, n=2)
    assert (a.n, b.n) == (1, 2) and type(b) is Counter


def test_replay__reports_the_first_mismatch():
    calls = [
        Call(tool="add", args={"k": 1}, ok=True, observation="now 1"),
        Call(tool="add", args={"k": 1}, ok=True, observation="now 3"),
        Call(tool="add", args={"k": -1}, ok=True, observation="now 9"),
    ]
    result = replay(ACTIONS, Counter(), calls)
    assert result.final == Counter(2)
    assert result.mismatch is not None and result.mismatch.call_index == 1
    assert "now 3" in result.mismatch.describe() and "now 2" in result.mismatch.describe()


def test_replay__clean_trace_has_no_mismatch():
    calls = [Call(tool="add", args={"k": 4}, ok=True, observation="now 4")]
    assert replay(ACTIONS, Counter(), calls).mismatch is None


def _typed(state: Counter, s: str, i: int, f: float, b: bool, a: object) -> Outcome[Counter]:
    """Every declared type an argument can have."""
    return Outcome(state, "ok")


VALUES = [
    None,
    True,
    False,
    0,
    1,
    -7,
    10**12,
    10**12 + 1,
    -(10**12) - 1,
    2.5,
    3.0,
    -0.0,
    float("nan"),
    float("inf"),
    -float("inf"),
    1e13,
    "",
    "x",
    "7.50",
    [1],
    {"k": 1},
]


@pytest.mark.parametrize("name", ["s", "i", "f", "b", "a"])
@pytest.mark.parametrize("value", VALUES, ids=repr)
def test_apply__argument_checks_decide_as_check_type_and_check_value(name, value):
    """The fast paths in the binding refuse and admit exactly what the full checks do."""
    from checkout_consent.core.world import argument_hint, check_type, check_value

    args = {"s": "", "i": 0, "f": 0.0, "b": False, "a": None, name: value}
    try:
        check_type(name, argument_hint(_typed, name), value)
        check_value(name, value)
        expected = "ok"
    except ActionError as err:
        expected = f"Error: {err}"
    assert apply({"t": _typed}, Counter(), "t", args).observation == expected


def test_stamped__refuses_a_record_type_without_a_world_version_field():
    """`World.stamped` writes `world_version` into the record; a record type that does not
    declare it would lose the stamp silently (pydantic's model_copy drops unknown keys)."""
    from checkout_consent.core import Frozen
    from checkout_consent.families import WORLDS

    class Stampless(Frozen):
        score: float

    class Stamped(Frozen):
        score: float
        world_version: str = ""

    world = WORLDS[0]
    assert world.stamped(Stamped(score=1.0)).world_version == world.world_version  # type: ignore[attr-defined]
    with pytest.raises(TypeError, match="Stampless declares no world_version field"):
        world.stamped(Stampless(score=1.0))
