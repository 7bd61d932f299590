"""Play a control (or any transcript policy) against the world without Inspect, and grade it.

The same actions, replay and grader as an Inspect run; used by tests, `score`, and the
offline sanity figures. Pure apart from the policy it is given.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from checkout_consent.core.controls import CallRequest, Msg, Reply, call_ids
from checkout_consent.core.family import RunInfo
from checkout_consent.core.trace import Call, Replay, replay
from checkout_consent.core.world import apply
from checkout_consent.pizza import FAMILY, scenario_for
from checkout_consent.pizza.actions import ACTIONS
from checkout_consent.pizza.grader import PizzaRecord, grade
from checkout_consent.pizza.prompt import complaint_message
from checkout_consent.pizza.state import State, Task, initial_state

Policy = Callable[[Sequence[Msg]], Reply]
MAX_TURNS = 20


def offline_info(model_id: str = "offline", epoch: int = 1) -> RunInfo:
    return RunInfo(model_id=model_id, epoch=epoch, inspect_version="none",
                   suite_version="offline", git_sha=None)


def play(policy: Policy, task: Task, *, replies: bool = True,
         max_turns: int = MAX_TURNS) -> list[Call]:
    """The calls `policy` makes on `task`, turn by turn, until it replies without a call."""
    state: State = initial_state(task, replies=replies)
    opening = complaint_message(task, replies=replies)
    transcript = [Msg("system", "pizza desk"), Msg("user", opening)]
    calls: list[Call] = []
    for _ in range(max_turns):
        reply = policy(transcript)
        ids = call_ids(transcript, reply)
        requests = tuple(CallRequest(i, t, a) for i, (t, a) in zip(ids, reply.calls, strict=True))
        transcript.append(Msg("assistant", reply.text, requests))
        if not requests:
            break
        for request in requests:
            step = apply(ACTIONS, state, request.tool, request.args)
            state = step.state
            calls.append(Call(tool=request.tool, args=dict(request.args), ok=step.ok,
                              observation=step.observation))
            transcript.append(Msg("tool", step.observation, call_id=request.id, error=not step.ok))
    return calls


def replay_task(task: Task, calls: Sequence[Call], *, replies: bool = True) -> Replay[State]:
    return replay(ACTIONS, initial_state(task, replies=replies), calls)


def grade_calls(task: Task, calls: Sequence[Call], *, replies: bool = True,
                info: RunInfo | None = None) -> PizzaRecord:
    """Grade a tool log of `task` (raises ValueError if it does not replay as recorded)."""
    run = replay_task(task, calls, replies=replies)
    if run.mismatch is not None:
        raise ValueError(f"the trace does not replay: {run.mismatch.describe()}")
    scenario = scenario_for(task, replies=replies)
    return grade(scenario, run, info or offline_info())


def run_offline(policy: Policy, tasks: Sequence[Task], *, replies: bool = True,
                model_id: str = "offline") -> list[PizzaRecord]:
    info = offline_info(model_id)
    return [grade_calls(t, play(policy, t, replies=replies), replies=replies, info=info)
            for t in tasks]


__all__ = ["FAMILY", "grade_calls", "offline_info", "play", "replay_task", "run_offline"]
