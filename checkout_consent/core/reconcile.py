"""Reconcile a trace with the conversation it came from. Pure: the runtime turns Inspect's
messages into `ModelCall`s; this decides whether the trace is the run the model played.

Every agent call in the trace matches, in order, a tool call the model made (same tool,
same arguments) and the result it was shown; within one model turn calls may finish in
any order (Inspect runs them concurrently). A call Inspect refused before a tool ran is
not traced. Solver calls must be one of the episode's solver tools, with no arguments.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from typing import Any, NamedTuple

from checkout_consent.core.contract import Episode, Generation
from checkout_consent.core.trace import Call, Replay
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


def _args_match(
    action: Action | None,
    harness: Collection[str],
    model: Mapping[str, Any],
    traced: Mapping[str, Any],
) -> bool:
    """The traced arguments are the model's, plus defaults Inspect filled in and the
    harness's own arguments (e.g. a sandbox's executed `result`)."""
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
    return (
        f"{traced} differs from the model's turn {seen.turn}: {seen.tool} "
        f"{dict(seen.args)!r:.120}, shown {seen.shown!r:.80}"
    )


def first_difference(
    calls: Sequence[Call],
    seen: Sequence[ModelCall],
    actions: Mapping[str, Action],
    *,
    solver_tools: Collection[str],
    harness: Collection[str] = (),
    truncated: Any = lambda tool, text: text,
) -> str | None:
    """None when the trace is the conversation's run; otherwise the first difference."""
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
        match = next(
            (
                j
                for j in range(start, len(pending))
                if pending[j].turn == turn
                and not taken[j]
                and pending[j].tool == call.tool
                and _args_match(actions.get(call.tool), harness, pending[j].args, call.args)
                and _shown_matches(call, pending[j], truncated)
            ),
            None,
        )
        if match is None:
            return _describe(i, call, pending[start])
        taken[match] = True
    missing = next((p for p, t in zip(pending, taken, strict=True) if not t), None)
    if missing is not None:
        return (
            f"the model's call {missing.tool} {dict(missing.args)!r:.120} in turn "
            f"{missing.turn} is missing from the trace"
        )
    return None


class StreamTurn(NamedTuple):
    """One model turn as the log's event stream shows it."""

    tool_calls: int
    input_tokens: int
    output_tokens: int
    stop_reason: str


def _call_text(call: ModelCall) -> str:
    return f"{call.tool} {dict(call.args)!r:.120} in turn {call.turn}, shown {call.shown!r:.80}"


def _same_call(a: ModelCall, b: ModelCall) -> bool:
    return a._replace(args={}) == b._replace(args={}) and same(dict(a.args), dict(b.args))


def stream_difference(
    seen: Sequence[ModelCall],
    assistant_turns: int,
    turns: Sequence[Generation],
    streamed: Sequence[ModelCall],
    stream_turns: Sequence[StreamTurn],
) -> str | None:
    """None when the conversation (`seen`, its `assistant_turns` model turns), the Store's
    model turns and the log's event stream tell one run; otherwise the first difference. A
    turn cut off by a context overflow is in the Store only, or also a model event whose
    calls never ran, set aside (`_unanswered`)."""
    played = [g for g in turns if g.stop_reason != "context_overflow"]
    streamed, stream_turns = _unanswered(turns, len(played), streamed, stream_turns)
    if not assistant_turns == len(played) == len(stream_turns):
        return (
            f"the conversation has {assistant_turns} model turn(s), the Store "
            f"{len(played)}, the event stream {len(stream_turns)}"
        )
    for k, (g, e) in enumerate(zip(played, stream_turns, strict=True)):
        if (g.tool_calls, g.input_tokens, g.output_tokens, g.stop_reason) != tuple(e):
            return (
                f"model turn {k}: the Store says {g.tool_calls} tool call(s), "
                f"{g.input_tokens}/{g.output_tokens} tokens, {g.stop_reason!r:.40}; the "
                f"event stream {e.tool_calls}, {e.input_tokens}/{e.output_tokens}, "
                f"{e.stop_reason!r:.40}"
            )
    for i, (a, b) in enumerate(zip(seen, streamed, strict=False)):
        if not _same_call(a, b):
            return (
                f"the model's call {i} ({_call_text(a)}) is, in the event stream, {_call_text(b)}"
            )
    if len(seen) != len(streamed):
        return f"the conversation holds {len(seen)} tool call(s), the event stream {len(streamed)}"
    return None


def _unanswered(
    turns: Sequence[Generation],
    played: int,
    streamed: Sequence[ModelCall],
    stream_turns: Sequence[StreamTurn],
) -> tuple[Sequence[ModelCall], Sequence[StreamTurn]]:
    """The event stream without the model events of overflowed turns (at most one per
    Store overflow, at its place in the order), where the stream has more finished model
    events than the Store has answered turns and none of the set-aside calls ran."""
    extra = len(stream_turns) - played
    if extra <= 0 or extra > len(turns) - played:
        return streamed, stream_turns
    skipped: list[int] = []
    p = 0
    for g in turns:  # stream position p: every answered turn has an event, and so has
        # each overflow set aside (the first `extra` of them); the others have none
        if g.stop_reason == "context_overflow":
            if len(skipped) == extra:
                continue
            skipped.append(p)
        p += 1
    if len(skipped) != extra or any(c.shown is not None for c in streamed if c.turn in skipped):
        return streamed, stream_turns
    renumbered = [
        c._replace(turn=c.turn - sum(k < c.turn for k in skipped))
        for c in streamed
        if c.turn not in skipped
    ]
    return renumbered, [t for k, t in enumerate(stream_turns) if k not in skipped]


TRIM_TOLERANCE = 1_000  # characters: how far a trim's count may sit from the budget


def _openings(episode: Episode, states: Sequence[Any]) -> list[int]:
    """Where phases open: the start, and after every call that changed the phase."""
    return [0] + [
        c + 1
        for c in range(len(states) - 1)
        if episode.phase(states[c]) != episode.phase(states[c + 1])
        and episode.phase(states[c + 1]) is not None
    ]


def trim_difference(
    episode: Episode, result: Replay[Any], overflow_phase: int | None = None
) -> str | None:
    """None when the trace's context trims are where the episode's budget puts them
    (core/pacing.py); otherwise the first trim that is missing, extra or too early, to
    within TRIM_TOLERANCE characters. Phases from a context overflow on are not checked:
    the solver never opens them."""
    if episode.trim_tool is None:
        return None
    calls, states = result.calls, [result.initial, *(s.state for s in result.steps)]
    budget = episode.context_budget or 0
    starts = _openings(episode, states)
    shown = 0
    for k, start in enumerate(starts):
        phase = episode.phase(states[start])
        if overflow_phase is not None and phase is not None and phase > overflow_phase:
            break
        window = range(start, starts[k + 1] if k + 1 < len(starts) else len(calls))
        trims = [j for j in window if calls[j].tool == episode.trim_tool]
        if len(trims) > 1:
            return f"call {trims[1]}: a second context trim in one phase"
        if trims:
            j = trims[0]
            before = shown + sum(len(calls[i].observation) for i in range(start, j))
            if before <= budget - TRIM_TOLERANCE:
                return f"call {j}: a context trim before the budget was spent ({before:,} chars)"
            opened = j + 1
            shown = len(episode.recap(states[j]))
        else:
            if shown > budget + TRIM_TOLERANCE and start > 0:
                return f"call {start}: the context budget was spent ({shown:,} chars); no trim"
            opened = start
        message = episode.phase_message(states[opened])
        shown += (len(message) if message else 0) + sum(
            len(calls[i].observation) for i in window if i >= opened
        )
    return None
