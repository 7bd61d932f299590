"""Inspect glue shared by every family's task: putting the scenario into the store."""

from __future__ import annotations

from inspect_ai.solver import Generate, Solver, TaskState, solver

from checkout_consent.core.store import RunStore


@solver
def init_scenario() -> Solver:
    """Task setup: copy the sample's scenario into the store, where the tools find it.
    Runs even when the solver is swapped on the command line."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        run = state.store_as(RunStore)
        run.scenario = dict(state.metadata["scenario"])
        return state

    return solve
