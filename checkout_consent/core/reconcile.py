"""Reconcile a trace with the conversation it came from. Pure: the runtime turns Inspect's
messages into `ModelCall`s; this decides whether the trace is the run the model played.

Rules: every agent call in the trace matches, in order, a tool call the model made (same
tool, same arguments) and the result the model was shown (the observation, or the error
text of a refused call). Within one model turn calls may finish in any order (Inspect
runs them concurrently); across turns the order is strict. A model call refused by
Inspect before it reached a tool (bad JSON, unknown tool, schema) is not traced. Solver
calls (origin "solver") need no model call but must be one of the episode's solver tools
(its close tool, its context-trim tool) with no arguments. Anything else is a difference,
reported for the first differing call.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from typing import Any, NamedTuple

from checkout_consent.core.trace import Call
from checkout_consent.core.world import Action, action_params


class ModelCall(NamedTuple):
    """One tool call as the conversation shows it."""

    turn: int  # which model turn (assistant message) made it, from 0
    tool: str
    args: Mapping[str, Any]
    shown: str | None  # the result text the model was shown; None if it saw none
    error: bool  # the model was shown an error
    reached: bool  # the call reached the tool (Inspect did not refuse it first)


def same(a: object, b: object) -> bool:
    """JSON equality as a tool sees it: numbers by value (5 == 5.0, as Inspect converts
    them), booleans never equal to numbers, lists and objects element by element."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if a is None and isinstance(b, float) and not math.isfinite(b):
        return True  # a log stores the model's own NaN/inf as null (the call was refused)
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b or (a != a and b != b)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def _args_match(action: Action | None, harness: Collection[str], model: Mapping[str, Any],
                traced: Mapping[str, Any]) -> bool:
    """The traced arguments are the model's, plus defaults Inspect filled in and the
    harness's own arguments (e.g. shopkit's executed `result`)."""
    defaults = {p.name: p.default for p in action_params(action)} if action else {}
    for key, value in traced.items():
        if key in model:
            if not same(model[key], value):
                return False
        elif key not in harness and not (key in defaults and same(defaults[key], value)):
            return False
    return model.keys() <= traced.keys()


def _shown_matches(call: Call, seen: ModelCall, truncated: Any) -> bool:
    if seen.error != (not call.ok):
        return False
    return seen.shown == call.observation or seen.shown == truncated(call.tool, call.observation)


def _describe(i: int, call: Call, seen: ModelCall | None) -> str:
    traced = f"call {i} ({call.tool} {dict(call.args)!r:.120} -> {call.observation!r:.80})"
    if seen is None:
        return f"{traced} was never made by the model"
    return (f"{traced} differs from the model's turn {seen.turn}: {seen.tool} "
            f"{dict(seen.args)!r:.120}, shown {seen.shown!r:.80}")


def first_difference(calls: Sequence[Call], seen: Sequence[ModelCall],
                     actions: Mapping[str, Action], *, solver_tools: Collection[str],
                     harness: Collection[str] = (),
                     truncated: Any = lambda tool, text: text) -> str | None:
    """None when the trace is the conversation's run; otherwise the first difference.
    `truncated(tool, text)` gives the text as Inspect would show an over-long result."""
    pending = [s for s in seen if s.reached]
    taken = [False] * len(pending)
    start = 0  # the first pending call not yet matched (its turn is the current one)
    for i, call in enumerate(calls):
        if call.origin == "solver":
            if call.tool not in solver_tools or call.args:
                return f"call {i} ({call.tool}) claims the solver made it; it never does"
            continue
        while start < len(pending) and taken[start]:
            start += 1
        if start == len(pending):
            return _describe(i, call, None)
        turn = pending[start].turn
        match = next((j for j in range(start, len(pending)) if pending[j].turn == turn
                      and not taken[j] and pending[j].tool == call.tool
                      and _args_match(actions.get(call.tool), harness, pending[j].args,
                                      call.args)
                      and _shown_matches(call, pending[j], truncated)), None)
        if match is None:
            return _describe(i, call, pending[start])
        taken[match] = True
    missing = next((p for p, t in zip(pending, taken, strict=True) if not t), None)
    if missing is not None:
        return (f"the model's call {missing.tool} {dict(missing.args)!r:.120} in turn "
                f"{missing.turn} is missing from the trace")
    return None
