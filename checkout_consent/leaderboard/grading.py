"""Re-grade an .eval log with the packaged scorer, trusting none of its stored scores.

Each sample goes through `runtime.regrade.regrade_sample` (the trust work: the scenario
reference checked against the packaged tasks and its world version, the trace replayed and
reconciled with the conversation). This module adds what a submission needs around it: the
log's own claims (task, model, version) and the scenario each sample played, kept for the
public-set check and for seasons."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from checkout_consent.core.family import FamilySpec
from checkout_consent.families import WORLDS, world_for, world_of_args
from checkout_consent.leaderboard.copies import sample_digest


@dataclass(frozen=True)
class SampleGrade:
    id: str
    epoch: int
    record: dict[str, Any] | None  # None when the sample failed integrity
    failure: str | None
    input_tokens: int  # from the sample's traced model turns, not from any stored score
    output_tokens: int
    scenario: dict[str, Any] | None = None  # the scenario reference the sample played
    digest: str | None = None  # its trace and conversation, model name out (leaderboard.copies)


@dataclass
class LogGrade:
    path: str
    family: str | None = None
    model: str | None = None
    world_version: str | None = None
    task_args: dict[str, Any] = field(default_factory=dict)  # the -T arguments, as logged
    samples: list[SampleGrade] = field(default_factory=list)
    refusal: str | None = None  # the whole log is refused (unreadable, unknown version)


def _spec(task: str) -> FamilySpec | None:
    name = task.rsplit("/", 1)[-1]
    return next((f for f in WORLDS if f.task == name), None)


def _read(path: Path) -> Any:
    from checkout_consent.runtime import regrade

    return regrade._read(path)  # size-capped, one-line errors (RegradeError)


def _grade(spec: FamilySpec, sample: Any, model: str) -> SampleGrade:
    from checkout_consent.runtime.regrade import regrade_sample  # Inspect: only once needed

    scenario = (sample.metadata or {}).get("scenario")
    carried = scenario.get("scenario_id") if isinstance(scenario, dict) else None
    verdict = regrade_sample(world_for(spec.name, carried), sample, model)
    tokens = (
        int(verdict.provenance.get("input_tokens", 0)),
        int(verdict.provenance.get("output_tokens", 0)),
    )
    return SampleGrade(
        verdict.id,
        verdict.epoch,
        verdict.record,
        verdict.failure,
        *tokens,
        scenario if isinstance(scenario, dict) else None,
        sample_digest(sample, model),
    )


def regrade(path: Path) -> LogGrade:
    """Every sample of the log at `path`, re-graded by this checkout's packaged scorer."""
    from checkout_consent.runtime.regrade import RegradeError

    out = LogGrade(str(path))
    try:
        log = _read(path)
    except RegradeError as err:
        out.refusal = str(err).split(": ", 1)[-1]
        return out
    task, version = str(log.eval.task), log.eval.task_version
    spec = _spec(task)
    out.model = str(log.eval.model)
    out.task_args = dict(log.eval.task_args or {})
    if spec is None:
        out.refusal = f"task {task[:80]!r} is not a family of this suite"
        return out
    if spec.variant is None:  # a family's task plays a variant's world by `scenario=`
        spec = world_of_args(spec.name, out.task_args)
    out.family = spec.name
    out.world_version = f"{spec.world_version.rsplit('-', 1)[0]}-{str(version)[:20]}"
    if out.world_version != spec.world_version:
        out.refusal = (
            f"world version {out.world_version[:60]!r} is unknown to this suite "
            f"(it grades {spec.world_version})"
        )
        return out
    for sample in sorted(log.samples or [], key=lambda s: (str(s.id), s.epoch)):
        try:
            out.samples.append(_grade(spec, sample, out.model))
        except Exception as err:  # a stranger's file: a sample that cannot be read fails
            why = f"the sample cannot be re-graded ({type(err).__name__})"
            out.samples.append(SampleGrade(str(sample.id), int(sample.epoch), None, why, 0, 0))
    return out
