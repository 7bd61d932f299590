"""Play and grade without Inspect: the offline driver and saved-trace grading.

`play` runs a control policy against a family's pure world, paced by the family's
`Episode` exactly as Inspect's solver paces it (runtime/solvers.py), so its trace is the
trace an Inspect run of the same control records (a family whose tools do work outside
the pure world, like shopkit's sandboxed commands, does it in `FamilySpec.prepare_call`,
which both its tools and this driver call). Used by sanity, tests and benchmarks.

A saved log (`checkout-consent score`) is a JSON list of calls (or an object with a
`calls` list). Each call names a `tool` and its `args`; `ok` and `observation` are
optional. A call without an observation is replayed as given; a call with one must
replay to it, or grading refuses.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, NamedTuple

from checkout_consent.core.controls import CallRequest, Msg, Policy, call_ids, count_tokens
from checkout_consent.core.family import FamilySpec, Generation, Record, Scenario
from checkout_consent.core.trace import Call, Replay, replay
from checkout_consent.core.world import apply


class Played(NamedTuple):
    """An offline run: the final state, the trace and the model turns."""

    state: Any
    calls: list[Call]
    turns: list[Generation]


class _Run:
    """The mutable bookkeeping of one offline run (state, trace, transcript, turns)."""

    def __init__(self, spec: FamilySpec, scenario: Scenario) -> None:
        self.spec, self.scenario = spec, scenario
        self.state = spec.initial(scenario)
        self.calls: list[Call] = []
        self.turns: list[Generation] = []
        self.transcript = [Msg("system", spec.episode.system(scenario)),
                           Msg("user", spec.episode.opening(scenario))]

    def perform(self, tool: str, args: dict[str, Any], origin: str = "agent") -> bool:
        prepare = self.spec.prepare_call
        if prepare is not None and origin == "agent":
            args = prepare(self.state, tool, args)
        step = apply(self.spec.actions, self.state, tool, args)
        self.calls.append(Call(tool=tool, args=dict(args), ok=step.ok,
                               observation=step.observation, origin=origin))  # type: ignore[arg-type]
        self.state = step.state
        return step.ok

    def turn(self, policy: Policy, phase: int) -> tuple[bool, bool]:
        """One model turn: (made calls, a stop tool succeeded)."""
        reply = policy(self.scenario, self.transcript)
        requests = tuple(CallRequest(i, t, a) for i, (t, a) in
                         zip(call_ids(self.transcript, reply), reply.calls, strict=True))
        self.turns.append(Generation(phase=phase, input_tokens=0, output_tokens=count_tokens(
            reply.text), tool_calls=len(requests), stop_reason="tool_calls" if requests
            else "stop"))
        self.transcript.append(Msg("assistant", reply.text, requests))
        stopped = False
        for req in requests:
            ok = self.perform(req.tool, req.args)
            stopped |= ok and req.tool in self.spec.episode.stop_tools
            self.transcript.append(Msg("tool", self.calls[-1].observation, call_id=req.id,
                                       error=not ok))
        return bool(requests), stopped


def _play_phase(run: _Run, policy: Policy, phase: int) -> None:
    episode = run.spec.episode
    for _ in range(episode.turns):
        made_calls, stopped = run.turn(policy, phase)
        if stopped:
            return
        if not made_calls:
            if episode.nudge is None:
                return
            run.transcript.append(Msg("user", episode.nudge))


def play(spec: FamilySpec, scenario: Scenario, policy: Policy) -> Played:
    """Run `policy` through the family's episode against the pure world."""
    run, episode = _Run(spec, scenario), spec.episode
    while (phase := episode.phase(run.state)) is not None:
        message = episode.phase_message(run.state)
        if message is not None:
            run.transcript.append(Msg("user", message))
        _play_phase(run, policy, phase)
        if episode.phase(run.state) != phase:
            continue
        if episode.close_tool is None:
            break
        run.perform(episode.close_tool, {}, origin="solver")
    return Played(run.state, run.calls, run.turns)


def as_record(spec: FamilySpec, record: Any) -> Record:
    """A grader's pydantic record as plain JSON data."""
    return dict(json.loads(record.model_dump_json()))


def play_and_grade(spec: FamilySpec, scenario: Scenario, policy: Policy) -> Record:
    """Play a policy offline and grade the run exactly as the Inspect scorer would."""
    played = play(spec, scenario, policy)
    result = replay(spec.actions, spec.initial(scenario), played.calls)
    return as_record(spec, spec.grade(scenario, result, tuple(played.turns)))


def saved_calls(trace: Any) -> list[dict[str, Any]]:
    """The calls of a saved log, checked for shape (ValueError names the bad call)."""
    items = trace.get("calls") if isinstance(trace, dict) else trace
    if not isinstance(items, list):
        raise ValueError("a trace is a list of calls or an object with a `calls` list")
    for i, item in enumerate(items):
        if not (isinstance(item, dict) and isinstance(item.get("tool"), str)
                and isinstance(item.get("args", {}), dict)):
            raise ValueError(f"call {i} needs a `tool` name and an `args` object: {item!r}")
    return items


def replay_saved(spec: FamilySpec, scenario: Scenario, trace: Any) -> Replay[Any]:
    """Replay a saved log: fill in what it leaves out, refuse what does not replay."""
    raw = saved_calls(trace)
    bare = [Call(tool=c["tool"], args=dict(c.get("args", {})), ok=True, observation="")
            for c in raw]
    steps = replay(spec.actions, spec.initial(scenario), bare).steps
    calls = [Call(tool=b.tool, args=b.args, ok=bool(r.get("ok", s.ok)),
                  observation=r.get("observation", s.observation))
             for b, s, r in zip(bare, steps, raw, strict=True)]
    result = replay(spec.actions, spec.initial(scenario), calls)
    if result.mismatch is not None:
        raise ValueError(f"the trace does not replay: {result.mismatch.describe()}")
    return result


def grade_saved(spec: FamilySpec, scenario: Scenario, trace: Any,
                turns: Sequence[Generation] = ()) -> Record:
    """The family's score record for a saved log, as plain JSON data."""
    return as_record(spec, spec.grade(scenario, replay_saved(spec, scenario, trace),
                                      tuple(turns)))
