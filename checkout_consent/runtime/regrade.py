"""Re-grade a finished .eval log by its packaged scorer, never trusting its stored scores."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from checkout_consent.core.contract import Record, World
from checkout_consent.runtime import untrusted
from checkout_consent.runtime.meta import task_module
from checkout_consent.runtime.scorer import Judged, judge, provenance, record_of

MAX_LOG_BYTES = 512 * 1024 * 1024


class RegradeError(ValueError):
    """The file cannot be re-graded at all (one line: which file, and why)."""


@dataclass(frozen=True)
class SampleVerdict:
    """One (sample, epoch) re-graded: its record, or why it was refused."""

    id: str
    epoch: int
    record: Record | None
    failure: str | None
    provenance: dict[str, Any]


@dataclass(frozen=True)
class LogVerdict:
    """Every sample of a log, re-graded by this checkout's packaged scorer."""

    path: str
    family: str
    world_version: str
    samples: tuple[SampleVerdict, ...]

    @property
    def ok(self) -> bool:
        return all(s.failure is None for s in self.samples)


def _family(task: str, worlds: Sequence[World]) -> World:
    name = task.rsplit("/", 1)[-1]
    for world in worlds:
        if world.name == name:
            return world
    raise RegradeError(f"task {task[:100]!r} is not one of this suite's tasks")


def _read(path: Path) -> Any:
    from inspect_ai.log import read_eval_log

    try:
        untrusted.regular(path, MAX_LOG_BYTES)  # Inspect's reader opens it: checked first
    except untrusted.Refused as err:
        raise RegradeError(str(err)) from None
    try:
        return read_eval_log(str(path))
    except Exception as err:  # any reader failure is a bad file, said in one line
        first = (str(err).strip().splitlines() or [type(err).__name__])[0][:200]
        raise RegradeError(f"{path}: not a readable Inspect log ({first})") from None


def judge_sample(world: World, sample: Any) -> Judged:
    """One logged sample judged by the packaged scorer of `world` from its evidence."""
    store = {
        k.split(":", 1)[1]: v for k, v in (sample.store or {}).items() if k.startswith("RunStore:")
    }
    return judge(
        world, sample.id, sample.metadata or {}, store, sample.messages or [], sample.events or []
    )


def regrade_sample(world: World, sample: Any, model: str) -> SampleVerdict:
    """One logged sample through the packaged scorer's checks and grader of `world`."""
    judged = judge_sample(world, sample)
    record = None if judged.record is None else record_of(judged)
    return SampleVerdict(
        str(sample.id),
        int(sample.epoch),
        record,
        judged.failure,
        provenance(model, int(sample.epoch), judged.turns),
    )


def regrade_log(path: str | Path, worlds: Sequence[World]) -> LogVerdict:
    """Re-grade every sample of the .eval log at `path` by the world whose task it is."""
    log = _read(Path(path))
    world = _family(str(log.eval.task), worlds)
    samples = tuple(
        regrade_sample(world, s, str(log.eval.model))
        for s in sorted(log.samples or [], key=lambda s: (str(s.id), s.epoch))
    )
    if not samples:
        raise RegradeError(f"{path}: the log holds no samples")
    return LogVerdict(str(path), world.name, world.world_version, samples)


def rescore_log(path: str | Path, out: str | Path, worlds: Sequence[World]) -> tuple[World, Any]:
    """`inspect score --action overwrite` of the log by its world's scorer, written to `out`."""
    from inspect_ai import score
    from inspect_ai.log import write_eval_log

    log = _read(Path(path))
    world = _family(str(log.eval.task), worlds)
    if not log.samples:
        raise RegradeError(f"{path}: the log holds no samples")
    module = task_module(world)
    scorer = getattr(module, f"{world.name}_scorer")()
    # the scorers grade with no model: a keyless stand-in, so no provider key is asked for
    scored = score(log, scorer, model="mockllm/model", action="overwrite", display="none")
    write_eval_log(scored, str(out))
    return world, scored
