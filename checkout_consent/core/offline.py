"""Play and grade without Inspect: `play` runs a control through the same pacer as
Inspect's solver, so its trace is the one Inspect records; a saved log's call with an
observation must replay to it, or grading refuses; a trace that stops early went silent
there, its remaining phases closed as the solver closes them."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, NamedTuple

from checkout_consent.core.contract import Generation, Record, World
from checkout_consent.core.controls import (
    CallRequest,
    Caught,
    Exploit,
    Msg,
    Policy,
    call_ids,
    count_tokens,
    transcript_tokens,
)
from checkout_consent.core.pacing import (
    Command,
    Say,
    Solve,
    Turned,
    drive,
    next_command,
    pace,
)
from checkout_consent.core.reconcile import trim_difference
from checkout_consent.core.scenario import Scenario
from checkout_consent.core.trace import Call, Origin, Replay, replay, traced
from checkout_consent.core.world import (
    ActionError,
    Step,
    action_params,
    apply,
    argument_hint,
    check_type,
    check_value,
)


class Played(NamedTuple):
    """An offline run: the final state, the trace and the model turns."""

    state: Any
    calls: list[Call]
    turns: list[Generation]


class _Run:
    """The mutable bookkeeping of one offline run (state, trace, transcript, turns)."""

    def __init__(self, world: World, scenario: Scenario) -> None:
        self.world, self.scenario = world, scenario
        self.state = world.initial(scenario)
        self.calls: list[Call] = []
        self.turns: list[Generation] = []
        self.transcript = [
            Msg("system", world.episode.system(scenario)),
            Msg("user", world.episode.opening(scenario)),
        ]
        self.window = 0  # where the conversation the agent sees resumes after a trim

    def view(self) -> list[Msg]:
        """What the agent sees: the opening, then everything since the last trim's recap."""
        return (
            self.transcript
            if not self.window
            else [*self.transcript[:2], *self.transcript[self.window :]]
        )

    def perform(self, tool: str, args: dict[str, Any], origin: Origin = "agent") -> bool:
        prepare = self.world.prepare_call
        if prepare is not None and origin == "agent":
            args = prepare(self.state, tool, args)
        step = apply(self.world.actions, self.state, tool, args)
        self.calls.append(traced(tool, args, step, origin))
        self.state = step.state
        return step.ok

    def turn(self, policy: Policy, phase: int) -> Turned:
        """One model turn: the policy's reply, its calls performed and traced."""
        seen = self.view()
        reply = policy(self.scenario, seen)
        requests = tuple(
            CallRequest(i, t, a)
            for i, (t, a) in zip(call_ids(seen, reply), reply.calls, strict=True)
        )
        self.turns.append(
            Generation(  # tokens counted as the control provider reports them
                phase=phase,
                input_tokens=transcript_tokens(seen),
                output_tokens=count_tokens(reply.text + json.dumps([list(c) for c in reply.calls])),
                tool_calls=len(requests),
                stop_reason="tool_calls" if requests else "stop",
            )
        )
        self.transcript.append(Msg("assistant", reply.text, requests))
        before = len(self.calls)
        for req in requests:
            ok = self.perform(req.tool, req.args)
            self.transcript.append(
                Msg("tool", self.calls[-1].observation, call_id=req.id, error=not ok)
            )
        return Turned(tuple(self.calls[before:]), asked=bool(requests))

    def do(self, command: Command, policy: Policy) -> Turned | None:
        """Carry out one pacing command (core/pacing.py) against the pure world."""
        if isinstance(command, Say):
            if command.restart:
                self.window = len(self.transcript)
            self.transcript.append(Msg("user", command.text))
            return None
        if isinstance(command, Solve):
            self.perform(command.tool, {}, origin="solver")
            return Turned((self.calls[-1],))
        return self.turn(policy, command.phase)


def play(world: World, scenario: Scenario, policy: Policy) -> Played:
    """Run `policy` through the family's episode against the pure world."""
    run = _Run(world, scenario)
    drive(pace(world.episode, lambda: run.state), lambda command: run.do(command, policy))
    return Played(run.state, run.calls, run.turns)


def as_record(world: World, record: Any) -> Record:
    """A grader's pydantic record as plain JSON data."""
    return dict(json.loads(record.model_dump_json()))


def play_and_grade(world: World, scenario: Scenario, policy: Policy) -> Record:
    """Play a policy offline and grade the run exactly as the Inspect scorer would."""
    played = play(world, scenario, policy)
    result = replay(world.actions, world.initial(scenario), played.calls)
    return as_record(world, world.graded(scenario, result, tuple(played.turns)))


def judge(world: World, exploits: Sequence[Exploit]) -> list[Caught]:
    """Each exploit played alone offline and graded; what caught it, or what it scored."""
    key = world.headline.key
    played = [(e, play_and_grade(world, e.scenario(), e.policy)) for e in exploits]
    return [Caught(e.what, e.caught(r), f"{key} {r.get(key)!r}") for e, r in played]


MAX_CALLS = 100_000  # a saved trace longer than this is refused, not graded
MAX_CLOSES = 10_000  # phases closed for a trace that stops before the horizon


def _saved_call(i: int, item: object, world: World) -> Call:
    """One saved call, checked: a known tool, JSON arguments of the declared types."""
    if not (
        isinstance(item, dict)
        and isinstance(item.get("tool"), str)
        and isinstance(item.get("args", {}), dict)
    ):
        raise ValueError(f"call {i} needs a `tool` name and an `args` object")
    tool, args = item["tool"], dict(item.get("args", {}))
    action = world.actions.get(tool)
    if action is None:
        raise ValueError(
            f"call {i}: {world.name} has no tool {tool[:60]!r}; tools are: "
            f"{', '.join(sorted(world.actions))}"
        )
    hints = {p.name: p for p in action_params(action)}
    try:
        for key, value in args.items():
            if key not in hints:
                raise ActionError(f"{tool} takes no argument {key[:60]!r}")
            check_value(key, value)
            check_type(key, argument_hint(action, key), value)
    except ActionError as err:
        raise ValueError(f"call {i} ({tool}): {err}") from None
    origin = item.get("origin", "agent")
    if (
        origin not in ("agent", "solver")
        or origin == "solver"
        and (tool not in world.episode.solver_tools or args)
    ):
        raise ValueError(
            f"call {i}: origin must be agent (or solver for the close or trim "
            f"tool, without arguments), got {str(origin)[:40]!r}"
        )
    return Call(tool=tool, args=args, ok=True, observation="", origin=origin)


def saved_calls(world: World, trace: Any) -> list[Call]:
    """The calls of a saved log, checked (ValueError names the first bad call)."""
    items = trace.get("calls") if isinstance(trace, dict) else trace
    if not isinstance(items, list):
        raise ValueError("a trace is a list of calls or an object with a `calls` list")
    if len(items) > MAX_CALLS:
        raise ValueError(f"the trace has {len(items):,} calls; at most {MAX_CALLS:,} are graded")
    return [_saved_call(i, item, world) for i, item in enumerate(items)]


def _recorded(i: int, raw: object, step: Step[Any], call: Call) -> Call:
    """The call with what the saved log says it saw (must equal the replay's)."""
    seen = raw if isinstance(raw, dict) else {}
    ok, observation = seen.get("ok", step.ok), seen.get("observation", step.observation)
    if ok != step.ok or observation != step.observation:
        raise ValueError(
            f"the trace does not replay: call {i} ({call.tool}): recorded "
            f"{str(observation)[:120]!r} but replay gives "
            f"{step.observation[:120]!r}"
        )
    return call.model_copy(update={"ok": step.ok, "observation": step.observation})


def _went_silent(
    world: World, initial: Any, steps: Sequence[Step[Any]], bare: Sequence[Call]
) -> int | None:
    """The phase a saved trace stopped in (no trim is due after it); None: it ran to the end."""
    if world.episode.phase(steps[len(bare) - 1].state if bare else initial) is None:
        return None
    return world.episode.phase(steps[len(bare) - 2].state if len(bare) > 1 else initial)


def replay_saved(world: World, scenario: Scenario, trace: Any) -> Replay[Any]:
    """Replay a saved log: refuse what does not replay, and close the phases left open."""
    bare = saved_calls(world, trace)
    raw: list[Any] = trace["calls"] if isinstance(trace, dict) else trace
    initial = world.initial(scenario)
    played = replay(world.actions, initial, bare)
    steps, state = list(played.steps), played.final
    calls = [_recorded(i, raw[i], s, c) for i, (c, s) in enumerate(zip(bare, steps, strict=True))]
    pacer = pace(world.episode, lambda: state, silent=True)  # the solver closes what is open
    event: Turned | None = None
    for _ in range(MAX_CLOSES):
        command = next_command(pacer, event)
        if not isinstance(command, Solve):
            break
        step = apply(world.actions, state, command.tool, {})
        calls.append(traced(command.tool, {}, step, "solver"))
        steps.append(step)
        state = step.state
        event = Turned((calls[-1],))
    result = Replay(initial, tuple(calls), tuple(steps), None)
    misplaced = trim_difference(world.episode, result, _went_silent(world, initial, steps, bare))
    if misplaced is not None:
        raise ValueError(f"the trace's context trims are not the solver's: {misplaced}")
    return result


def grade_saved(
    world: World, scenario: Scenario, trace: Any, turns: Sequence[Generation] = ()
) -> Record:
    """The family's score record for a saved log, as plain JSON data."""
    return as_record(
        world, world.graded(scenario, replay_saved(world, scenario, trace), tuple(turns))
    )
