"""The storefront Inspect task: a day-loop solver over the pure world, scored by replay."""

from __future__ import annotations

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageSystem, ChatMessageUser
from inspect_ai.scorer import Scorer, mean, scorer
from inspect_ai.solver import Generate, Solver, TaskState, solver

from checkout_consent.core.loop import play_turns
from checkout_consent.core.scorer import make_score_fn
from checkout_consent.core.solvers import init_scenario
from checkout_consent.core.spec import parse_seeds
from checkout_consent.core.store import current_state, perform
from checkout_consent.storefront import FAMILY, days, prompts
from checkout_consent.storefront.spec import load_spec, scenario
from checkout_consent.storefront.tools import storefront_tools


def _sample(seed: int, spec: dict) -> Sample:
    sc = scenario(seed, spec)
    return Sample(id=f"seed-{seed}", input=prompts.briefing(sc),
                  metadata={"scenario": sc.model_dump(mode="json")})


@solver
def day_loop(turns_per_day: int) -> Solver:
    """Open each day with its news, let the agent act until it ends the day or runs out of
    turns (then end the day for it), until the last day is over. After a context overflow
    the remaining days are ended for the agent, so the run is still scored."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        state.messages.insert(0, ChatMessageSystem(content=prompts.SYSTEM))
        tools = storefront_tools()
        overflowed = False
        while not (world := current_state(FAMILY)).over:
            day = world.day
            if not overflowed:
                state.messages.append(ChatMessageUser(
                    content=f"Day {day} of {world.setup.days}.\n{days.morning_report(world)}"
                ))
                result = await play_turns(state, tools, phase=day, budget=turns_per_day,
                                          stop_tools=["end_day"], nudge=prompts.NUDGE)
                overflowed = result.ended_by == "overflow"
            if current_state(FAMILY).day == day and not current_state(FAMILY).over:
                perform(FAMILY, "end_day", {}, origin="solver")
        return state

    return solve


@scorer(metrics=[{"*": [mean()]}])
def storefront_scorer() -> Scorer:
    """Replay the trace through the world and grade it (works on finished logs too)."""
    return make_score_fn(FAMILY)


@task
def storefront(seeds: str = "0-9", scenario: str = "adversary_v0",
               turns_per_day: int | None = None) -> Task:
    """Run Lumino Goods for the scenario's days; one sample per seed."""
    spec = load_spec(scenario)
    budget = int(turns_per_day or spec["turns_per_day"])
    return Task(
        dataset=MemoryDataset([_sample(s, spec) for s in parse_seeds(seeds)], name="storefront"),
        setup=init_scenario(),
        solver=day_loop(budget),
        scorer=storefront_scorer(),
        version=1,
    )
