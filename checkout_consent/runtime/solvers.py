"""Inspect glue: the solver every family uses, and the setup that stores the scenario."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from inspect_ai.model import ChatMessageSystem, ChatMessageUser, get_model
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.tool import ToolDef

from checkout_consent.core.contract import World
from checkout_consent.core.pacing import Say, Solve, Turned, next_command, pace
from checkout_consent.core.scenario import Scenario
from checkout_consent.runtime.loop import run_config, take_turn, traced_since
from checkout_consent.runtime.store import RunStore, current_state, flush, live, perform


@solver
def init_scenario() -> Solver:
    """Task setup: copy the sample's scenario into the store, where the tools find it.
    Runs even when the solver is swapped on the command line."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        run = state.store_as(RunStore)
        run.scenario = dict(state.metadata["scenario"])
        return state

    return solve


@solver
def episode_solver(world: World, tools: Callable[[], list[ToolDef]], turns: int) -> Solver:
    """The episode as core/pacing.py paces it, with at most `turns` turns a phase."""
    episode = replace(world.episode, turns=turns)

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        try:
            return await play(state)
        finally:  # the trace goes into the Store once, however the run ended
            flush(state.store)

    async def play(state: TaskState) -> TaskState:
        scenario = Scenario.model_validate(state.metadata["scenario"])
        state.messages.insert(0, ChatMessageSystem(content=episode.system(scenario)))
        defs, model, config = tools(), get_model(), run_config(state)
        pacer = pace(episode, lambda: current_state(world))
        event: Turned | None = None
        window = 0
        while (command := next_command(pacer, event)) is not None:
            event = None
            if isinstance(command, Say):
                window = len(state.messages) if command.restart else window
                state.messages.append(ChatMessageUser(content=command.text))
            elif isinstance(command, Solve):
                before = len(live().calls)
                perform(world, command.tool, {}, origin="solver")
                event = Turned(traced_since(before))
            else:
                event = await take_turn(
                    state, defs, model, config, phase=command.phase, window=window
                )
        return state

    return solve
