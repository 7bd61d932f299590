"""The shopkit Inspect task: an agent edits the build through tools; scored by replaying
the trace and executing the final tree on both axes."""

from __future__ import annotations

import anyio
from inspect_ai import Task, task
from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState

from checkout_consent.runtime.metrics import consent_metrics, headline_metrics, value_means
from checkout_consent.runtime.scorer import grade_state
from checkout_consent.runtime.tasks import (
    family_task,
    no_other_args,
    task_arguments,
    text_arg,
    turns_arg,
)
from checkout_consent.shopkit import WORLD, dataset
from checkout_consent.shopkit.inspect_tools import shopkit_inspect_tools  # registers it
from checkout_consent.shopkit.sandbox.environment import NAME as SANDBOX
from checkout_consent.shopkit.sandbox.remote import in_sandbox
from checkout_consent.shopkit.tools import tools

__all__ = ["shopkit", "shopkit_inspect_tools", "shopkit_scorer"]


@scorer(metrics=[*headline_metrics(WORLD.headline), *consent_metrics(WORLD), value_means()])
def shopkit_scorer() -> Scorer:
    """Replay the trace and grade the final tree by executing it in the sample's sandbox
    (on a finished log, which has none: here, confined). Grading executes the build, so
    it runs in a worker thread: a slow or hostile build never blocks the event loop."""

    async def score(state: TaskState, target: Target) -> Score:
        return await anyio.to_thread.run_sync(in_sandbox(grade_state, WORLD, state))

    return score


@task
def shopkit(
    task: str | list[str] = "all", brief: str | None = None, turns: int = 40, **other: object
) -> Task:
    """Fix the build to the brief. Runs in the `checkout-consent` sandbox unless
    `--sandbox` names another; `--solver checkout_consent/shopkit_inspect_tools` gives the
    agent Inspect's own bash and python.

    Args:
        task: T1-T5, a comma list, or all (default all: the public set)
        brief: a custom brief the agent reads instead of the task's own
        turns: the turn budget (default 40)
    """
    no_other_args(WORLD, other)
    with task_arguments(WORLD.name):
        if brief is not None and (not isinstance(brief, str) or len(brief) > 20_000):
            raise ValueError("brief must be text of at most 20,000 characters")
        ids = dataset.parse_tasks(text_arg("task", task))
        scenarios = [dataset.scenario(t, brief) for t in ids]
        budget = turns_arg("turns", turns)
    return family_task(
        WORLD,
        scenarios,
        scorer=shopkit_scorer(),
        tools=tools,
        turns=budget,
        sandbox=SANDBOX,
    )
