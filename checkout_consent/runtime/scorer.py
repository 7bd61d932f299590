"""Inspect glue: the replay scorer. Rebuild the initial world from the sample's scenario,
replay the recorded trace through the same actions, refuse any observation that differs,
hand the replay to the family's pure grader, and attach the run's provenance once."""

from __future__ import annotations

import json
from typing import Any

from inspect_ai.scorer import Score, Target
from inspect_ai.solver import TaskState

from checkout_consent.core.family import FamilySpec, Generation, Scenario
from checkout_consent.core.trace import Call, replay
from checkout_consent.runtime.pricing import eval_cost_usd, normalized_cost_usd
from checkout_consent.runtime.provenance import git_sha, inspect_version, suite_version
from checkout_consent.runtime.store import RunStore


def provenance(state: TaskState, turns: tuple[Generation, ...]) -> dict[str, Any]:
    """Who played, with what, at what cost: facts of the run, not of the world."""
    model = str(state.model)
    tokens_in = sum(g.input_tokens for g in turns)
    tokens_out = sum(g.output_tokens for g in turns)
    return {
        "model_id": model, "epoch": state.epoch, "input_tokens": tokens_in,
        "output_tokens": tokens_out, "turns": len(turns),
        "eval_cost_usd": eval_cost_usd(model, tokens_in, tokens_out),
        "normalized_cost_usd": normalized_cost_usd(tokens_in, tokens_out),
        "inspect_version": inspect_version(), "suite_version": suite_version(),
        "suite_git_sha": git_sha(),
    }


def grade_state(spec: FamilySpec, state: TaskState) -> Score:
    """Grade one finished sample from its metadata and store alone (works on old logs)."""
    scenario = Scenario.model_validate(state.metadata["scenario"])
    run = state.store_as(RunStore)
    calls = [Call.model_validate(c) for c in run.calls]
    turns = tuple(Generation.model_validate(g) for g in run.generations)
    result = replay(spec.actions, spec.initial(scenario), calls)
    if result.mismatch is not None:
        why = result.mismatch.describe()
        return Score(
            value={"integrity": 0.0},
            answer="integrity failure",
            explanation=f"INTEGRITY FAILURE: the trace does not replay: {why}",
            metadata={"integrity_failure": why, "family": spec.name},
        )
    record = spec.grade(scenario, result, turns)
    dumped: dict[str, Any] = json.loads(record.model_dump_json())
    return Score(
        value={**spec.metrics(record), "integrity": 1.0},
        answer=spec.name,
        explanation=spec.explain(record),
        metadata={"record": dumped, "provenance": provenance(state, turns),
                  "family": spec.name, "world_version": spec.world_version},
    )


def replay_score(spec: FamilySpec) -> Any:
    """The score function of a family's @scorer."""

    async def score(state: TaskState, target: Target) -> Score:
        return grade_state(spec, state)

    return score
