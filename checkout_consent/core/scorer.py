"""Inspect glue: the replay scorer. Rebuild the initial world from the sample's scenario,
replay the recorded trace through the same actions, refuse any observation that differs,
and hand the replay to the family's pure grader."""

from __future__ import annotations

import json
from typing import Any

from inspect_ai.scorer import Score, Target
from inspect_ai.solver import TaskState

from checkout_consent.core.family import Family, Generation, RunInfo, Scenario
from checkout_consent.core.store import RunStore
from checkout_consent.core.trace import Call, replay
from checkout_consent.core.version import git_sha, inspect_version, suite_version


def run_info(state: TaskState) -> RunInfo:
    run = state.store_as(RunStore)
    return RunInfo(
        model_id=str(state.model),
        epoch=state.epoch,
        inspect_version=inspect_version(),
        suite_version=suite_version(),
        git_sha=git_sha(),
        generations=tuple(Generation.model_validate(g) for g in run.generations),
    )


def grade_state(family: Family, state: TaskState) -> Score:
    """Grade one finished sample from its metadata and store alone (works on old logs)."""
    scenario = Scenario.model_validate(state.metadata["scenario"])
    calls = [Call.model_validate(c) for c in state.store_as(RunStore).calls]
    result = replay(family.actions, family.initial(scenario), calls)
    if result.mismatch is not None:
        why = result.mismatch.describe()
        return Score(
            value={"integrity": 0.0},
            answer="integrity failure",
            explanation=f"INTEGRITY FAILURE: the trace does not replay: {why}",
            metadata={"integrity_failure": why, "family": family.name},
        )
    record = family.grade(scenario, result, run_info(state))
    dumped: dict[str, Any] = json.loads(record.model_dump_json())
    return Score(
        value={**family.metrics(record), "integrity": 1.0},
        answer=family.name,
        explanation=family.explain(record),
        metadata={"record": dumped, "family": family.name, "world_version": family.version},
    )


def make_score_fn(family: Family) -> Any:
    async def score(state: TaskState, target: Target) -> Score:
        return grade_state(family, state)

    return score
