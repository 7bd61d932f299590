"""Inspect glue: the solver every family uses. It paces a run by the family's `Episode`
(the offline driver in core/offline.py paces it the same way) and puts the scenario into
the Store, where the tools and the control provider find it."""

from __future__ import annotations

from collections.abc import Callable

from inspect_ai.model import ChatMessageSystem, ChatMessageUser
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.tool import ToolDef

from checkout_consent.core.family import FamilySpec, Scenario, shown_chars
from checkout_consent.runtime.loop import play_turns
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
def episode_solver(spec: FamilySpec, tools: Callable[[], list[ToolDef]], turns: int) -> Solver:
    """Phase by phase: open the phase with its message, let the agent act for at most
    `turns` turns; if the phase is unchanged, call the close tool for it (or stop). After a
    context overflow the remaining phases are closed for the agent, so the run is scored.
    Over the episode's context budget, a phase opens by trimming the conversation (as the
    offline driver does: core/offline.py `_open_phase`)."""
    episode = spec.episode

    def open_phase(state: TaskState, shown: int, mark: int, window: int) -> tuple[int, ...]:
        calls = live().calls
        shown += sum(shown_chars(c["tool"], c["args"], c["observation"]) for c in calls[mark:])
        if episode.over_budget(shown):  # the log keeps every message; the model sees less
            recap = episode.recap(current_state(spec))
            window = len(state.messages)
            state.messages.append(ChatMessageUser(content=recap))
            perform(spec, str(episode.trim_tool), {}, origin="solver")
            shown = len(recap)
        message = episode.phase_message(current_state(spec))
        if message is not None:
            state.messages.append(ChatMessageUser(content=message))
            shown += len(message)
        return shown, len(live().calls), window

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        try:
            return await play(state)
        finally:  # the trace goes into the Store once, however the run ended
            flush(state.store)

    async def play(state: TaskState) -> TaskState:
        scenario = Scenario.model_validate(state.metadata["scenario"])
        state.messages.insert(0, ChatMessageSystem(content=episode.system(scenario)))
        defs = tools()
        overflowed = False
        shown = mark = window = 0
        while (phase := episode.phase(current_state(spec))) is not None:
            if not overflowed:
                shown, mark, window = open_phase(state, shown, mark, window)
                result = await play_turns(state, defs, phase=phase, budget=turns, window=window,
                                          stop_tools=episode.stop_tools, nudge=episode.nudge)
                overflowed = result.ended_by == "overflow"
            if episode.phase(current_state(spec)) != phase:
                continue
            if episode.close_tool is None:
                break
            perform(spec, episode.close_tool, {}, origin="solver")
        return state

    return solve
