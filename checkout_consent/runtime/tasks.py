"""Inspect glue: a family's Task from its spec, its scenarios and its tools. Every family's
`task.py` is a few lines over this: the same dataset shape, solver, scorer and version."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from inspect_ai import Task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.scorer import Scorer
from inspect_ai.tool import ToolDef

from checkout_consent.core.family import FamilySpec, Scenario
from checkout_consent.runtime.solvers import episode_solver, init_scenario


def sample(spec: FamilySpec, scenario: Scenario) -> Sample:
    """One sample: its id, the opening message, and the scenario reference (stamped with
    the world version it is played on) in metadata."""
    versioned = scenario.model_copy(update={"version": spec.version})
    return Sample(id=spec.sample_id(scenario), input=spec.episode.opening(scenario),
                  metadata={"scenario": versioned.model_dump(mode="json")})


def family_task(spec: FamilySpec, scenarios: Sequence[Scenario], *, scorer: Scorer,
                tools: Callable[[], list[ToolDef]], turns: int | None = None) -> Task:
    """The family's Inspect task over `scenarios`."""
    return Task(
        dataset=MemoryDataset([sample(spec, s) for s in scenarios], name=spec.name),
        setup=init_scenario(),
        solver=episode_solver(spec, tools, int(turns or spec.episode.turns)),
        scorer=scorer,
        version=spec.version,
    )
