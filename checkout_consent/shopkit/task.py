"""The shopkit Inspect task: an agent edits the build through tools; scored by replaying
the trace and executing the final tree on both axes."""

from __future__ import annotations

import anyio
from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageSystem
from inspect_ai.scorer import Score, Scorer, Target, mean, scorer
from inspect_ai.solver import Generate, Solver, TaskState, solver

from checkout_consent.core.loop import play_turns
from checkout_consent.core.scorer import grade_state
from checkout_consent.core.solvers import init_scenario
from checkout_consent.shopkit import FAMILY
from checkout_consent.shopkit.generate import load_tasks, scenario, task_ids
from checkout_consent.shopkit.tools import shopkit_tools

NUDGE = "Keep working with the tools. Call finish when the build does what the brief asks."


def opening(task_id: str, brief: str) -> str:
    return (f"Run: shopkit {task_id}.\n\n{brief}\n\nThe build is shopkit/ (the package) "
            "and data/ (the dataset). Call finish when you are done.")


def _sample(task_id: str, brief: str | None) -> Sample:
    sc = scenario(task_id, brief)
    return Sample(id=task_id, input=opening(task_id, str(sc.params["brief"])),
                  metadata={"scenario": sc.model_dump(mode="json")})


@solver
def shopkit_agent(turns: int) -> Solver:
    """Let the agent work until it calls finish, stops replying with calls, or runs out."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        state.messages.insert(0, ChatMessageSystem(content=str(load_tasks()["system"])))
        await play_turns(state, shopkit_tools(), phase=1, budget=turns,
                         stop_tools=["finish"], nudge=NUDGE)
        return state

    return solve


@scorer(metrics=[{"*": [mean()]}])
def shopkit_scorer() -> Scorer:
    """Replay the trace, materialise the final tree and grade it (works on old logs).
    Grading executes the build, so it runs in a worker thread: a slow or hostile build
    never blocks the other samples' event loop."""

    async def score(state: TaskState, target: Target) -> Score:
        return await anyio.to_thread.run_sync(grade_state, FAMILY, state)

    return score


@task
def shopkit(task: str = "T5", brief: str | None = None, turns: int = 40) -> Task:
    """Fix the build to the brief. `task` is T1-T5, a comma list, or `all`."""
    ids = task_ids() if task == "all" else [t.strip() for t in str(task).split(",")]
    unknown = [t for t in ids if t not in task_ids()]
    if unknown:
        raise ValueError(f"unknown shopkit task(s) {unknown}; tasks: {', '.join(task_ids())}")
    return Task(
        dataset=MemoryDataset([_sample(t, brief) for t in ids], name="shopkit"),
        setup=init_scenario(),
        solver=shopkit_agent(int(turns)),
        scorer=shopkit_scorer(),
        version=1,
    )
