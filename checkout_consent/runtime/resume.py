"""What a resumed suite may take from the logs already in its log dir: nothing on trust
(docs/suite.md, "Resuming"). Inspect reuses logs and stored scores as they stand, so
`set_aside` checks every log it would reuse and sets aside one that fails, to be played
again; after the run, `regraded` re-grades every record, never reading a stored score.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple

from checkout_consent.core.contract import Record, World
from checkout_consent.core.reconcile import same
from checkout_consent.runtime.regrade import judge_sample
from checkout_consent.runtime.scorer import Judged, as_score

REFUSED_SUFFIX = ".refused"  # not `.eval`: Inspect lists only its own log extensions


class ResumeRefused(ValueError):
    """The log dir holds another run's log of this task (one line: which, and why)."""


class Expected(NamedTuple):
    """What a log of one task of the run being resumed must show."""

    task: str  # the task's name without its package prefix
    model: str
    version: str  # the task's version (its world's)
    task_args: str  # canonical JSON
    digests: Mapping[str, str]  # sample id -> digest of its id, input and metadata
    samples: int  # (sample, epoch) pairs the run plays


def _canonical(value: object) -> str:
    return json.dumps(value, sort_keys=True, default=str, separators=(",", ":"))


def digest(sample_id: object, given: object, metadata: object) -> str:
    """A sample's identity: its id, its input and its metadata (the scenario reference)."""
    shown = given if isinstance(given, str) else [(m.role, m.text) for m in given or []]  # type: ignore[attr-defined]
    return hashlib.sha256(_canonical([str(sample_id), shown, metadata]).encode()).hexdigest()


def expected(task: Any, model: str, samples: int) -> Expected:
    """The run's identity for one built Task, its model and its (sample, epoch) count."""
    from checkout_consent.runtime.compat import task_args_of

    return Expected(
        str(task.name).rsplit("/", 1)[-1],
        model,
        str(task.version),
        _canonical(task_args_of(task)),
        {str(s.id): digest(s.id, s.input, s.metadata) for s in task.dataset},
        samples,
    )


def _header_problem(header: Any, want: Expected) -> str | None:
    got_args = _canonical(dict(header.eval.task_args_passed or {}))
    if got_args != want.task_args:
        return f"its task arguments {got_args[:200]} are not this run's {want.task_args[:200]}"
    if str(header.eval.task_version) != want.version:
        return f"its task version {str(header.eval.task_version)[:40]!r} is not {want.version!r}"
    return None


def _models_problem(header: Any, sample: Any, want: Expected) -> str | None:
    from inspect_ai.event import ModelEvent

    named = {str(e.model) for e in sample.events or [] if isinstance(e, ModelEvent)}
    named |= set(sample.model_usage or {}) | set(header.stats.model_usage or {})
    other = sorted(named - {want.model})
    if other:
        return f"sample {str(sample.id)[:60]} was played by {other[0][:80]!r}, not {want.model}"
    return None


def sample_problem(
    world: World, header: Any, sample: Any, want: Expected
) -> tuple[str | None, Judged | None]:
    """Why this logged sample may not be reused (None if it may), and its re-grade if any."""
    name = f"sample {str(sample.id)[:60]} epoch {sample.epoch}"
    if want.digests.get(str(sample.id)) != digest(sample.id, sample.input, sample.metadata):
        return f"{name} is not this task's sample (its input or scenario differ)", None
    problem = _models_problem(header, sample, want)
    if problem is not None:
        return problem, None
    verdict = judge_sample(world, sample)
    if verdict.failure is not None:
        return f"{name}: {verdict.failure}", verdict
    stored = next(iter((sample.scores or {}).values()), None)
    if stored is None:  # stopped or errored in a finished log: played again, never reused
        why = (
            f" (it ended in an error: {_first_line(sample.error.message)})" if sample.error else ""
        )
        return f"{name} has no score{why}: it is played again", verdict
    fresh = as_score(world, verdict, want.model, int(sample.epoch)).value
    if not same(_plain(stored.value), _plain(fresh)):
        return f"{name}: its stored score is not its re-grade ({_canonical(fresh)[:120]})", verdict
    return None, verdict


def _first_line(err: object) -> str:
    return (str(err).strip().splitlines() or [type(err).__name__])[0][:120]


def _plain(value: object) -> object:
    return json.loads(_canonical(value))


def logged_keys(path: Path) -> list[tuple[str, int]]:
    """(sample id, epoch) of every sample written into an .eval log's zip, once each (a
    resumed log's zip may list a rewritten member twice; a reader takes the last)."""
    from checkout_consent.runtime.logs import zip_names

    out = []
    for member in zip_names(path):
        stem = member.removeprefix("samples/").removesuffix(".json")
        if member.startswith("samples/") and "_epoch_" in stem:
            sample_id, _, epoch = stem.rpartition("_epoch_")
            if epoch.isdigit():
                out.append((sample_id, int(epoch)))
    return list(dict.fromkeys(out))


def log_problem(path: Path, header: Any, world: World, want: Expected) -> str | None:
    """The first reason the log at `path` may not be reused (a partial log's unfinished or
    errored samples are never reused, so not read)."""
    from checkout_consent.runtime.compat import read_log_samples

    found: list[str] = []

    def check(sample: Any) -> None:
        if found or (header.status != "success" and (sample.error or not sample.scores)):
            return
        problem, _ = sample_problem(world, header, sample, want)
        if problem is not None:
            found.append(problem)

    keys = logged_keys(path)
    if len(keys) > want.samples:  # fewer is a smaller run's log: Inspect plays the rest
        return f"it holds {len(keys)} sample(s) where the run plays {want.samples}"
    read_log_samples(str(path), list(keys), set(), check)
    return found[0] if found else None


def _owner(header: Any, wanted: Mapping[str, tuple[World, Expected]]) -> Any:
    """The (world, expectation) of the run's task this log would be reused for, or None."""
    task = str(header.eval.task).rsplit("/", 1)[-1]
    pair = wanted.get(task)
    if pair is None or str(header.eval.model) != pair[1].model:
        return None  # not ours to reuse (Inspect refuses a foreign log dir itself)
    return pair


def set_aside(log_dir: str | Path, wanted: Mapping[str, tuple[World, Expected]]) -> list[str]:
    """Rename out of Inspect's sight every log of this run's tasks (`wanted`: task name ->
    (world, Expected)) that fails its checks, one line each; ResumeRefused for a log of
    another run of the same task."""
    from checkout_consent.runtime.logs import read_header

    lines = []
    for path in sorted(Path(log_dir).rglob("*.eval")):
        try:
            header = read_header(path)
        except Exception:  # a log cut off mid-write: Inspect cannot reuse it either
            continue
        pair = _owner(header, wanted)
        if pair is None:
            continue
        mismatch = _header_problem(header, pair[1])
        if mismatch is not None:
            raise ResumeRefused(f"{path.name}: {mismatch}; resume it with its own arguments")
        try:
            problem = log_problem(path, header, pair[0], pair[1])
        except Exception as err:  # a sample that does not parse is a forged one
            problem = f"a sample does not read ({_first_line(err)})"
        if problem is not None:
            aside = path.with_name(path.name + REFUSED_SUFFIX)
            path.replace(aside)
            lines.append(f"{path.name}: {problem}; set aside as {aside.name}, played again")
    return lines


def regraded(location: str, world: World, want: Expected) -> tuple[list[Record], str | None]:
    """A finished log's records, each re-graded from its evidence, or why it cannot be trusted."""
    from checkout_consent.runtime.compat import read_log_samples
    from checkout_consent.runtime.logs import local_path, read_header

    path = local_path(location)
    header = read_header(path)
    problem = _header_problem(header, want)
    keyed: list[tuple[tuple[str, int], Record]] = []

    def grade(sample: Any) -> None:
        nonlocal problem
        if problem is None:
            problem, verdict = sample_problem(world, header, sample, want)
            if problem is None and verdict is not None and verdict.record is not None:
                record = json.loads(verdict.record.model_dump_json())
                keyed.append(((str(sample.id), int(sample.epoch)), record))

    keys = logged_keys(path)
    if problem is None and len(keys) != want.samples:
        problem = f"it holds {len(keys)} sample(s) where the run plays {want.samples}"
    if problem is None:
        read_log_samples(str(path), list(keys), set(), grade)
    return ([] if problem else [r for _, r in sorted(keyed, key=lambda kv: kv[0])]), problem
