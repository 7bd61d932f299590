"""`submit validate DIR`: everything CI checks on a submission, as one Verdict.

Nothing in the folder is imported or run as code: the card is parsed by a schema, logs are
read as data and re-graded by this checkout's packaged scorer, cassettes are replayed
through the pinned providers with the network blocked."""

from __future__ import annotations

import tempfile
from pathlib import Path

from checkout_consent.cassettes import scan
from checkout_consent.families import FAMILIES, worlds_of
from checkout_consent.leaderboard.copies import copied_from
from checkout_consent.leaderboard.expected import (
    coverage,
    partial,
    public_samples,
    settings_differences,
)
from checkout_consent.leaderboard.folder import list_folder
from checkout_consent.leaderboard.grading import LogGrade, regrade
from checkout_consent.leaderboard.headline import label_of, world_of
from checkout_consent.leaderboard.schema import Card, CardError, read_card
from checkout_consent.leaderboard.seasons import task_sets
from checkout_consent.leaderboard.verdict import Verdict
from checkout_consent.runtime.pricing import eval_cost_usd, normalized_cost_usd


def _check_card(card: Card, root: Path) -> list[str]:
    if not any(f.name == card.family for f in FAMILIES):
        return [f"family {card.family!r} is not one this suite ships"]
    out = []
    spec = world_of(card.family, card.world_version)
    if spec is None:
        known = ", ".join(w.world_version for w in worlds_of(card.family))
        out.append(
            f"world version {card.world_version!r} is unknown to this suite "
            f"(it grades {known}); re-run with this checkout"
        )
    label = card.family if spec is None else spec.label
    if card.task_set not in task_sets(label):
        out.append(f"task set {card.task_set!r}: {label} accepts {', '.join(task_sets(label))}")
    if root.name != card.submission_id or root.parent.name != card.family:
        out.append(
            f"the folder must be <family>/<submission_id>, i.e. "
            f"{card.family}/{card.submission_id} (it is {root.parent.name}/{root.name})"
        )
    return out


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
    label = label_of(card.family, card.world_version)
    if mine:
        out += [f"{name}: {d}" for d in settings_differences(label, grade.task_args)]
    public = public_samples(label) if mine else {}
    for s in grade.samples:
        if s.failure is not None:
            out.append(f"{name}: sample {s.id[:60]} epoch {s.epoch}: INTEGRITY: {s.failure}")
        elif s.scenario is not None and s.id in public and s.scenario != public[s.id]:
            out.append(
                f"{name}: sample {s.id[:60]} epoch {s.epoch}: played with settings "
                "other than the public set's"
            )
    return out


def _check_costs(card: Card, verdict: Verdict) -> list[str]:
    tokens_in, tokens_out = verdict.tokens
    out = []
    if (card.tokens.input, card.tokens.output) != (tokens_in, tokens_out):
        out.append(
            f"card tokens {card.tokens.input} in / {card.tokens.output} out, the logs "
            f"say {tokens_in} in / {tokens_out} out"
        )
    listed = eval_cost_usd(card.model.id, tokens_in, tokens_out)
    pairs = [
        ("list", card.cost.list_usd, listed),
        ("normalized", card.cost.normalized_usd, normalized_cost_usd(tokens_in, tokens_out)),
    ]
    for what, said, real in pairs:
        close = said is not None and real is not None and abs(said - real) <= max(0.005, real / 100)
        if not (close or (said is None and real is None)):
            out.append(f"card {what} cost {said}, the logs' tokens give {real}")
    return out


def _kept(record: dict | None) -> dict:
    """A record as replay compares it: no provenance, no volatile (timing) fields."""
    from checkout_consent.cassettes.runs import is_volatile

    return {k: v for k, v in (record or {}).items() if k != "provenance" and not is_volatile(k)}


def _compare(run: str, replayed: dict[str, dict], verdict: Verdict) -> list[str]:
    """How a cassette's replayed records differ from the re-graded log (records, tokens)."""
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
        if _kept(mine.record) != _kept(record):
            out.append(f"{run}: {unit}: the replayed record differs from the re-graded log")
        elif (facts.get("input_tokens"), facts.get("output_tokens")) != (
            mine.input_tokens,
            mine.output_tokens,
        ):
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
    label, played = (
        label_of(card.family, card.world_version),
        [(s.id, s.epoch) for s in verdict.samples],
    )
    verdict.partial = partial(label, card.task_set, card.epochs, played)
    if verdict.partial is None:  # part of the set is listed unranked; anything else refused
        verdict.refusals += coverage(label, card.task_set, card.epochs, played)
    verdict.refusals += _check_costs(card, verdict)
    verdict.refusals += copied_from(
        root, card, {s.digest: (s.id, s.epoch) for s in verdict.samples if s.digest}
    )
    if cassettes and listing.cassette_runs() and not verdict.refusals:
        verdict.refusals += _check_cassettes(root, listing.cassette_runs(), verdict)
    return verdict
