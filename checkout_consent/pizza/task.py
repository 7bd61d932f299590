"""The pizza Inspect task: one complaint per sample, an agent loop over the desk tools,
scored by replaying the tool log through the pure world."""

from __future__ import annotations

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageSystem
from inspect_ai.scorer import Scorer, mean, scorer
from inspect_ai.solver import Generate, Solver, TaskState, solver

from checkout_consent.core.loop import play_turns
from checkout_consent.core.scorer import make_score_fn
from checkout_consent.core.solvers import init_scenario
from checkout_consent.pizza import FAMILY, scenario_for
from checkout_consent.pizza.data import data_dir
from checkout_consent.pizza.prompt import complaint_message, system_prompt
from checkout_consent.pizza.select import as_flag, select_tasks
from checkout_consent.pizza.state import Task as PizzaTask
from checkout_consent.pizza.tools import pizza_tools

MAX_TURNS = 16


def _sample(task: PizzaTask, replies: bool) -> Sample:
    return Sample(
        id=task.task_id,
        input=complaint_message(task, replies=replies),
        metadata={"scenario": scenario_for(task, replies=replies).model_dump(mode="json"),
                  "template": task.template},
    )


@solver
def refund_desk(max_turns: int = MAX_TURNS) -> Solver:
    """The policy as system prompt, then the agent acts until it replies without a tool call."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        policy = (data_dir() / "POLICY.md").read_text(encoding="utf-8")
        state.messages.insert(0, ChatMessageSystem(content=system_prompt(policy)))
        await play_turns(state, pizza_tools(), phase=1, budget=max_turns)
        return state

    return solve


@scorer(metrics=[{"*": [mean()]}])
def pizza_scorer() -> Scorer:
    """Replay the tool log through the world and grade it (works on finished logs too)."""
    return make_score_fn(FAMILY)


@task
def pizza(split: str = "public", replies: bool | str = True, tasks: str | None = None,
          seeds: str | None = None, max_turns: int | str = MAX_TURNS) -> Task:
    """The refund desk. `split`: "public" or a hidden seed; `seeds`: several splits;
    `replies=false` silences the customer (the seed's one-shot setting); `tasks`: ids or
    template names, comma-separated."""
    chosen, talk = select_tasks(split, seeds, tasks), as_flag(replies)
    return Task(
        dataset=MemoryDataset([_sample(t, talk) for t in chosen], name="pizza"),
        setup=init_scenario(),
        solver=refund_desk(int(max_turns)),
        scorer=pizza_scorer(),
        version=1,
    )
