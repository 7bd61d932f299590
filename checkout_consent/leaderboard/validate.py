"""`submit validate DIR`: everything CI checks on a submission, as one Verdict (the card, the
re-graded samples, every refusal). Nothing in the folder is run as code: the card is parsed
by a schema, each log's samples are re-graded by `runtime.regrade.regrade_sample` (no stored
score trusted), cassettes are replayed with the network blocked. This module adds the log's
own claims (task, model, version) and the scenario each sample played."""

from __future__ import annotations

import contextlib
import dataclasses
import os
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from checkout_consent.cassettes import scan
from checkout_consent.core.contract import World
from checkout_consent.core.money import fmt_dollars
from checkout_consent.families import WORLDS, world_named
from checkout_consent.leaderboard.expected import (
    copied_from,
    coverage,
    log_digests,
    partial,
    public_samples,
    reference,
    sample_digest,
    settings_differences,
)
from checkout_consent.leaderboard.submission import (
    Card,
    CardError,
    list_folder,
    look_alikes,
    read_card,
    task_sets,
    world_of,
)
from checkout_consent.runtime.pricing import eval_cost_usd, normalized_cost_usd

SHOWN = 12  # refusals printed before "... and N more"


@dataclass(frozen=True)
class SampleGrade:
    id: str
    epoch: int
    record: dict[str, Any] | None  # None when the sample failed integrity
    failure: str | None
    input_tokens: int  # from the sample's traced model turns, not from any stored score
    output_tokens: int
    scenario: dict[str, Any] | None = None  # the scenario reference the sample played
    digest: str | None = None  # its trace and conversation, model name out (`sample_digest`)
    played_s: float = 0.0  # a person's play: the seconds its turns were open (`play_seconds`)


@dataclass
class LogGrade:
    path: str
    family: str | None = None
    model: str | None = None
    world_version: str | None = None
    task_args: dict[str, Any] = field(default_factory=dict)  # the -T arguments, as logged
    samples: list[SampleGrade] = field(default_factory=list)
    refusal: str | None = None  # the whole log is refused (unreadable, unknown version)
    digests: frozenset[str] | None = None  # every sample's digest, when every one was graded


def _grade(world: World, sample: Any, model: str) -> SampleGrade:
    from checkout_consent.runtime.human.journal import play_seconds
    from checkout_consent.runtime.regrade import regrade_sample

    verdict = regrade_sample(world, sample, model)
    return SampleGrade(
        verdict.id,
        verdict.epoch,
        verdict.record,
        verdict.failure,
        int(verdict.provenance.get("input_tokens", 0)),
        int(verdict.provenance.get("output_tokens", 0)),
        reference((sample.metadata or {}).get("scenario")),
        sample_digest(sample, model),
        play_seconds(sample) if model.startswith("human/") else 0.0,
    )


_SHARED: dict[str, LogGrade] | None = None  # inside `shared_grades`: real path -> grade


@contextlib.contextmanager
def shared_grades() -> Iterator[None]:
    """Within (a board build), each log is re-graded once, however often compared."""
    global _SHARED
    outer, _SHARED = _SHARED, ({} if _SHARED is None else _SHARED)
    try:
        yield
    finally:
        _SHARED = outer


def regrade(path: Path) -> LogGrade:
    """Every sample of the log at `path`, re-graded by this checkout's packaged scorer."""
    if _SHARED is None:
        return _regrade(path)
    key = os.path.realpath(path)
    if key not in _SHARED:
        _SHARED[key] = _regrade(path)
    return dataclasses.replace(_SHARED[key], path=str(path))


def _digests_of(path: Path) -> frozenset[str]:
    digests = regrade(path).digests if _SHARED is not None else None
    return log_digests(path) if digests is None else digests


def _regrade(path: Path) -> LogGrade:
    from checkout_consent.runtime import regrade as judged  # Inspect: only once needed

    out = LogGrade(str(path))
    try:
        log = judged._read(path)  # size-capped, one-line errors
    except judged.RegradeError as err:
        out.refusal = str(err).split(": ", 1)[-1]
        return out
    task, version = str(log.eval.task), log.eval.task_version
    world = next((f for f in WORLDS if f.name == task.rsplit("/", 1)[-1]), None)
    out.model = str(log.eval.model)
    out.task_args = dict(log.eval.task_args or {})
    if world is None:
        out.refusal = f"task {task[:80]!r} is not a family of this suite"
        return out
    out.family = world.name
    out.world_version = f"{world.world_version.rsplit('-', 1)[0]}-{str(version)[:20]}"
    if out.world_version != world.world_version:
        out.refusal = (
            f"world version {out.world_version[:60]!r} is unknown to this suite "
            f"(it grades {world.world_version})"
        )
        return out
    every = True
    for sample in sorted(log.samples or [], key=lambda s: (str(s.id), s.epoch)):
        try:
            out.samples.append(_grade(world, sample, out.model))
        except Exception as err:  # a stranger's file: a sample that cannot be read fails
            why = f"the sample cannot be re-graded ({type(err).__name__})"
            out.samples.append(SampleGrade(str(sample.id), int(sample.epoch), None, why, 0, 0))
            every = False
    if every:  # else a comparison reads the log for the digests (`log_digests`)
        out.digests = frozenset(s.digest for s in out.samples if s.digest is not None)
    return out


@dataclass
class Verdict:
    directory: str
    card: Card | None = None
    samples: list[SampleGrade] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)
    # (runs played, runs of the card's task set) when the logs play part of the set:
    # listed with its coverage and figures, never ranked (expected.partial)
    partial: tuple[int, int] | None = None

    @property
    def ok(self) -> bool:
        return not self.refusals

    @property
    def transcript(self) -> bool:
        return bool(self.samples)

    @property
    def played_s(self) -> float:
        """A person's play time over every sample (resumed turns at their journaled time)."""
        return round(sum(s.played_s for s in self.samples), 1)

    @property
    def tokens(self) -> tuple[int, int]:
        return sum(s.input_tokens for s in self.samples), sum(s.output_tokens for s in self.samples)

    def costs(self, model: str | None = None) -> tuple[float | None, float]:
        """(list, normalized) cost of the samples' tokens for `model` (default: the card's)."""
        model = model or (self.card.model.id if self.card else "")
        return eval_cost_usd(model, *self.tokens), normalized_cost_usd(*self.tokens)

    def status(self) -> str:
        if not self.ok:
            return "REFUSED"
        if self.partial is not None:
            played, of = self.partial
            return f"ACCEPTED (partial: {played} of {of} runs of the task set: listed, not ranked)"
        return "ACCEPTED" if self.transcript else "ACCEPTED (no transcript: listed, not ranked)"

    def to_json(self) -> dict[str, Any]:
        card = self.card
        return {
            "directory": self.directory,
            "ok": self.ok,
            "status": self.status(),
            "refusals": self.refusals,
            "family": card.family if card else None,
            "submission_id": card.submission_id if card else None,
            "samples": len(self.samples),
            "partial": None if self.partial is None else list(self.partial),
            "integrity_failures": sum(1 for s in self.samples if s.failure is not None),
            "tokens": {"input": self.tokens[0], "output": self.tokens[1]},
            "played_s": self.played_s,  # a person's play time (0 for a model's run)
            "cost_usd": dict(zip(("list", "normalized"), self.costs(), strict=True)),
        }

    def render(self) -> str:
        card = self.card
        lines = [f"{self.status()}  {self.directory}"]
        if card is not None:
            lines.append(
                f"  {card.family} / {card.submission_id}: {card.kind} {card.model.id}, "
                f"{card.world_version}, task set {card.task_set}, {card.epochs} epoch(s)"
            )
        if self.samples:
            lines.append(f"  {self._figures()}")
        lines += [f"  - {r}" for r in self.refusals[:SHOWN]]
        if len(self.refusals) > SHOWN:
            lines.append(f"  ... and {len(self.refusals) - SHOWN} more (--json lists them all)")
        return "\n".join(lines)

    def _figures(self) -> str:
        failed = sum(1 for s in self.samples if s.failure is not None)
        graded = f"re-graded {len(self.samples)} run(s), {failed} integrity failure(s);"
        if self.card is not None and self.card.kind == "human":
            return f"{graded} played {self.played_s} s (the time its turns were open)"
        listed, normalized = self.costs()
        return (
            f"{graded} tokens {self.tokens[0]} in / {self.tokens[1]} out; cost list "
            f"{'n/a' if listed is None else fmt_dollars(listed, 4)}, normalized "
            f"{fmt_dollars(normalized, 4)}"
        )


def _check_card(card: Card, root: Path) -> list[str]:
    if not any(f.name == card.family for f in WORLDS):
        return [f"family {card.family!r} is not one this suite ships"]
    out = []
    world = world_of(card.family, card.world_version)
    if world is None:
        out.append(
            f"world version {card.world_version!r} is unknown to this suite "
            f"(it grades {world_named(card.family).world_version}); re-run with this checkout"
        )
    label = card.family if world is None else world.name
    if card.task_set not in task_sets(label):
        out.append(f"task set {card.task_set!r}: {label} accepts {', '.join(task_sets(label))}")
    if root.name != card.submission_id or root.parent.name != card.family:
        out.append(
            f"the folder must be <family>/<submission_id>, i.e. "
            f"{card.family}/{card.submission_id} (it is {root.parent.name}/{root.name})"
        )
    return out + look_alikes(root)


def _check_log(card: Card, grade: LogGrade) -> list[str]:
    name = Path(grade.path).name
    if grade.refusal is not None:
        return [f"{name}: {grade.refusal}"]
    out = []
    mine = grade.family == card.family and grade.world_version == card.world_version
    if not mine:
        out.append(f"{name}: plays {grade.world_version}, the card says {card.world_version}")
    if grade.model != card.model.id:
        out.append(f"{name}: model {str(grade.model)[:80]!r}, the card says {card.model.id!r}")
    if mine:
        out += [f"{name}: {d}" for d in settings_differences(card.family, grade.task_args)]
    public = public_samples(card.family) if mine else {}
    for s in grade.samples:
        if s.failure is not None:
            out.append(f"{name}: sample {s.id[:60]} epoch {s.epoch}: INTEGRITY: {s.failure}")
        elif s.scenario is not None and s.id in public and s.scenario != public[s.id]:
            out.append(
                f"{name}: sample {s.id[:60]} epoch {s.epoch}: played with settings "
                "other than the public set's"
            )
    return out


def _check_time(card: Card, verdict: Verdict) -> list[str]:
    """A person's card states the play's time: the logs' (`played_s`), to a second or 1%."""
    played = verdict.played_s
    if abs(card.wall_time_seconds - played) <= max(1.0, played / 100):
        return []
    return [
        f"card wall_time_seconds {card.wall_time_seconds}, the logs' play time is {played} s "
        "(the time each turn was open, a resumed run's earlier turns included)"
    ]


def _check_costs(card: Card, verdict: Verdict) -> list[str]:
    if card.tokens is None or card.cost is None:  # a person's card: its time instead
        return _check_time(card, verdict)
    tokens_in, tokens_out = verdict.tokens
    out = []
    if (card.tokens.input, card.tokens.output) != (tokens_in, tokens_out):
        out.append(
            f"card tokens {card.tokens.input} in / {card.tokens.output} out, the logs "
            f"say {tokens_in} in / {tokens_out} out"
        )
    listed, normalized = verdict.costs()
    for what, said, real in [
        ("list", card.cost.list_usd, listed),
        ("normalized", card.cost.normalized_usd, normalized),
    ]:
        close = said is not None and real is not None and abs(said - real) <= max(0.005, real / 100)
        if not (close or (said is None and real is None)):
            out.append(f"card {what} cost {said}, the logs' tokens give {real}")
    return out


def _kept(record: dict | None) -> dict:
    """A record as replay compares it: no provenance, no volatile (timing) fields."""
    from checkout_consent.cassettes.runs import is_volatile

    return {k: v for k, v in (record or {}).items() if k != "provenance" and not is_volatile(k)}


def _compare(run: str, replayed: dict[str, dict], verdict: Verdict) -> list[str]:
    """How a cassette's replayed records differ from the re-graded log's."""
    from checkout_consent.cassettes.store import unit_stem

    graded = {unit_stem(f"{s.id}-{s.epoch}"): s for s in verdict.samples}
    if set(replayed) != set(graded):
        return [
            f"{run}: replays {len(replayed)} run(s), the logs hold {len(graded)}: a "
            "cassette must record the whole submitted run"
        ]
    out = []
    for unit, record in sorted(replayed.items()):
        facts, mine = record.get("provenance") or {}, graded[unit]
        tokens = (facts.get("input_tokens"), facts.get("output_tokens"))
        if _kept(mine.record) != _kept(record):
            out.append(f"{run}: {unit}: the replayed record differs from the re-graded log")
        elif tokens != (mine.input_tokens, mine.output_tokens):
            out.append(f"{run}: {unit}: the replayed tokens differ from the log's")
    return out


def _check_cassettes(root: Path, runs: list[str], verdict: Verdict) -> list[str]:
    from checkout_consent.cassettes import runs as cassette_runs
    from checkout_consent.cassettes import store

    out = []
    for run in runs:
        with tempfile.TemporaryDirectory(prefix="cc-submit-") as logs:
            try:
                outcome = cassette_runs.replay(root / run, log_dir=logs)
            except Exception as err:  # a stranger's cassette: any failure is a refusal
                out.append(f"{run}: does not replay: {str(err).splitlines()[0][:200]}")
                continue
        out += [f"{run}: {d}" for d in outcome.differences[:5]]
        recorded = store.Manifest.read(root / run).model
        if verdict.card is not None and recorded != verdict.card.model.id:
            out.append(
                f"{run}: recorded {recorded[:80]!r}, the card says {verdict.card.model.id!r}"
            )
        out += _compare(run, outcome.records, verdict)
    return out


def validate(root: Path, *, cassettes: bool = True) -> Verdict:
    """Check the submission at `root`; the verdict lists every refusal (empty: accepted)."""
    verdict = Verdict(str(root))
    listing = list_folder(root)
    verdict.refusals += listing.refusals
    if listing.refusals:
        return verdict
    verdict.refusals += [str(f) for f in scan.scan([root / f for f in listing.files])]
    try:
        card = verdict.card = read_card(root)
    except CardError as err:
        verdict.refusals += err.lines
        return verdict
    verdict.refusals += _check_card(card, root)
    if verdict.refusals or not listing.logs():
        return verdict  # no transcript: stored and listed, not ranked
    for log in listing.logs():
        grade = regrade(root / log)
        verdict.refusals += _check_log(card, grade)
        verdict.samples += grade.samples
    label, played = card.family, [(s.id, s.epoch) for s in verdict.samples]
    verdict.partial = partial(label, card.task_set, card.epochs, played)
    if verdict.partial is None:  # part of the set is listed unranked; anything else refused
        verdict.refusals += coverage(label, card.task_set, card.epochs, played)
    verdict.refusals += _check_costs(card, verdict)
    verdict.refusals += copied_from(
        root, card, {s.digest: (s.id, s.epoch) for s in verdict.samples if s.digest}, _digests_of
    )
    if cassettes and listing.cassette_runs() and not verdict.refusals:
        verdict.refusals += _check_cassettes(root, listing.cassette_runs(), verdict)
    return verdict
