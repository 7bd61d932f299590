"""Re-grade an .eval log with the packaged scorer, trusting none of its stored scores.

`runtime.regrade.regrade_log` (the trust work: the trace reconciled with the conversation,
unknown world versions refused) does the grading when this checkout has it; until then
`_fallback` replays each sample's trace through the packaged world, which catches a trace
that does not replay but not one pasted from another run. Either way the result is the same
`LogGrade`, so the rest of the leaderboard does not care which ran."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from checkout_consent.core.family import FamilySpec, Generation, Scenario
from checkout_consent.core.trace import Call, replay
from checkout_consent.families import FAMILIES
from checkout_consent.runtime.logs import read_log


@dataclass(frozen=True)
class SampleGrade:
    id: str
    epoch: int
    record: dict[str, Any] | None  # None when the sample failed integrity
    failure: str | None
    input_tokens: int
    output_tokens: int
    scenario: dict[str, Any] | None = None  # the scenario reference the sample played


@dataclass
class LogGrade:
    path: str
    family: str | None = None
    model: str | None = None
    world_version: str | None = None
    samples: list[SampleGrade] = field(default_factory=list)
    refusal: str | None = None  # the whole log is refused (unreadable, unknown version)


def _spec(task: str) -> FamilySpec | None:
    name = task.removeprefix("checkout_consent/")
    return next((f for f in FAMILIES if f.name == name), None)


def _grade_sample(spec: FamilySpec, sample: Any) -> SampleGrade:
    raw = sample.store or {}
    turns = tuple(Generation.model_validate(g) for g in raw.get("RunStore:generations", []))
    tokens = (sum(g.input_tokens for g in turns), sum(g.output_tokens for g in turns))
    scenario = Scenario.model_validate((sample.metadata or {})["scenario"])
    key = (str(sample.id), int(sample.epoch))
    if scenario.family != spec.name:
        why = f"the sample plays family {scenario.family!r}, the log is {spec.name!r}"
        return SampleGrade(*key, None, why, *tokens)
    calls = [Call.model_validate(c) for c in raw.get("RunStore:calls", [])]
    result = replay(spec.actions, spec.initial(scenario), calls)
    if result.mismatch is not None:
        why = f"the trace does not replay: {result.mismatch.describe()}"
        return SampleGrade(*key, None, why, *tokens)
    record = json.loads(spec.grade(scenario, result, turns).model_dump_json())
    return SampleGrade(*key, record, None, *tokens, scenario.model_dump(mode="json"))


def _fallback(path: Path) -> LogGrade:
    out = LogGrade(str(path))
    try:
        log = read_log(path)
    except Exception as err:  # a stranger's file: any failure to parse is a refusal
        out.refusal = f"not a readable Inspect log ({type(err).__name__})"
        return out
    spec = _spec(str(log.eval.task))
    out.model, out.world_version = str(log.eval.model), f"{log.eval.task}-{log.eval.task_version}"
    if spec is None:
        out.refusal = f"task {str(log.eval.task)[:80]!r} is not a family of this suite"
        return out
    out.family, out.world_version = spec.name, f"{spec.name}-{log.eval.task_version}"
    if out.world_version != spec.world_version:
        out.refusal = (f"world version {out.world_version[:60]!r} is unknown to this suite "
                       f"(it grades {spec.world_version})")
        return out
    for sample in log.samples or []:
        try:
            out.samples.append(_grade_sample(spec, sample))
        except Exception as err:  # malformed metadata or store: this sample fails integrity
            why = f"the sample cannot be re-graded ({type(err).__name__})"
            out.samples.append(SampleGrade(str(sample.id), int(sample.epoch), None, why, 0, 0))
    return out


def regrade(path: Path) -> LogGrade:
    """Every sample of the log at `path`, re-graded by this checkout's packaged scorer."""
    return _fallback(path)
