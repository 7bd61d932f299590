"""`checkout-consent reproduce SUBMISSION`: a maintainer re-runs the card's model on the
submission's samples (a control in process or on a loopback serve-controls, a model live
with the maintainer's key, or `--cassette replay` keyless); reproduced when the re-run's mean
lies within the submission's 95% CI (docs/leaderboard.md)."""

from __future__ import annotations

import datetime
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from checkout_consent.families import world_named
from checkout_consent.leaderboard.board import RECORD_NAME, entry, read_marks
from checkout_consent.leaderboard.submission import Card, folder_digest, list_folder
from checkout_consent.leaderboard.validate import SampleGrade, Verdict, regrade, validate


class ReproduceError(ValueError):
    """The submission cannot be reproduced at all (one line: why)."""


@dataclass(frozen=True)
class Reproduction:
    key: str  # <family>/<submission_id>
    model: str
    claimed: tuple[float, float, float]  # the submission's headline mean and 95% CI
    rerun: float  # the re-run's headline mean
    replayed: bool = False  # recorded traffic replayed: no re-run, never marked on the board

    @property
    def ok(self) -> bool:
        return self.claimed[1] <= self.rerun <= self.claimed[2]

    def line(self) -> str:
        mean, low, high = self.claimed
        word = "REPRODUCED" if self.ok else "NOT REPRODUCED"
        return (
            f"{word}  {self.key}: {self.model} {'replayed' if self.replayed else 're-run'} "
            f"gives {self.rerun:.4f}; the "
            f"submission's headline {mean:.4f} (95% CI {low:.4f} to {high:.4f})"
        )


def _headline(verdict: Verdict, root: Path) -> tuple[float, float, float]:
    """The board's headline of a verdict: one place, the board's own Entry."""
    ci = entry(verdict, root).interval()
    return ci.mean, ci.low, ci.high


@dataclass(frozen=True)
class Plan:
    """How a submission is reproduced: the `line` said first, and the re-run's `play`."""

    line: str
    play: Callable[[Path], list[SampleGrade]]
    replay: bool = False  # recorded traffic replayed, not a re-run


def _live(root: Path, card: Card, log_dir: Path, **eval_args: Any) -> list[SampleGrade]:
    """The card's model re-run with each submitted log's task arguments, re-graded."""
    from checkout_consent.runtime.runner import run_models

    samples: list[SampleGrade] = []
    for log in list_folder(root).logs():
        [run] = run_models(
            world_named(card.family),
            [card.model.id],
            task_args=regrade(root / log).task_args,
            epochs=card.epochs,
            log_dir=log_dir,
            **eval_args,
        )
        samples += regrade(Path(run.log_path)).samples
    return samples


def _served(root: Path, card: Card, log_dir: Path) -> list[SampleGrade]:
    """A control served over a provider's wire, re-run against an ephemeral serve-controls."""
    from checkout_consent.cassettes.runs import endpoint
    from checkout_consent.cassettes.session import placeholder_keys
    from checkout_consent.endpoint.controls import serving

    with serving(port=0) as server, placeholder_keys(card.model.id):
        base_url, model_args = endpoint(card.model.id.split("/")[0], server.url)
        return _live(root, card, log_dir, model_base_url=base_url, model_args=model_args)


def _replayed(
    card: Card, directories: list[Path], log_dir: Path, announce: Callable[[str], None]
) -> list[SampleGrade]:
    """Each cassette directory replayed and its log re-graded (another model's or world's is
    refused); `announce` is told where this checkout grades the traffic otherwise."""
    from checkout_consent.cassettes.runs import replay
    from checkout_consent.runtime.runner import RunFailed

    samples: list[SampleGrade] = []
    for directory in directories:
        try:
            outcome = replay(directory, log_dir=log_dir)
        except (RunFailed, OSError, ValueError) as failure:  # as `checkout-consent replay`
            raise ReproduceError(f"{directory}: does not replay: {failure}") from None
        got = regrade(Path(outcome.log_path))
        if (got.model, got.world_version) != (card.model.id, card.world_version):
            raise ReproduceError(
                f"{directory}: replays {got.model} on {got.world_version}; the card says "
                f"{card.model.id} on {card.world_version}"
            )
        if outcome.differences:
            announce(
                f"  {directory.name}: {len(outcome.differences)} difference(s) from its "
                f"golden records (this checkout grades the traffic otherwise); the first: "
                f"{outcome.differences[0]}"
            )
        samples += got.samples
    return samples


def committed_dir(card: Card) -> Path:
    """Where the checkout's committed cassettes hold a run of the card's model and world."""
    from checkout_consent.cassettes import store

    return store.run_dir(card.family, card.model.id)


def cassette_dirs(root: Path, card: Card) -> list[Path]:
    """The card's recorded traffic: the submission's own cassettes, else the committed one."""
    from checkout_consent.cassettes.store import MANIFEST

    own = [root / run for run in list_folder(root).cassette_runs()]
    if own:
        return own
    committed = committed_dir(card)
    return [committed] if (committed / MANIFEST).is_file() else []


def served_control(card: Card) -> bool:
    """Whether the card's model is a family control served over a provider's wire format."""
    from checkout_consent.cassettes.runs import WIRES
    from checkout_consent.families import control_registry

    provider, _, name = card.model.id.partition("/")
    if card.kind != "control" or provider not in WIRES:
        return False
    try:
        return control_registry().family_of(name) == card.family
    except KeyError:
        return False


def plan(
    root: Path,
    card: Card,
    cassette: str = "off",
    announce: Callable[[str], None] = lambda line: None,
) -> Plan:
    """How the card's run is reproduced, decided before anything runs (else ReproduceError)."""
    from checkout_consent.cassettes.load import CassetteRefused
    from checkout_consent.cassettes.preflight import check_key

    model = card.model.id
    if card.kind == "human":
        raise ReproduceError(f"{model}: a person's run (kind: human) is not re-run")
    if model.startswith("control/"):
        note = " (it has no cassette, none is needed)" if cassette == "replay" else ""
        return Plan(
            f"re-running {model}, a scripted control, in process{note}: no key, no network",
            lambda logs: _live(root, card, logs),
        )
    if cassette == "replay":
        directories = cassette_dirs(root, card)
        if not directories:
            raise ReproduceError(
                f"{root}: no cassette of {model} to replay: the folder holds none and "
                f"{committed_dir(card)} does not exist; re-run it live with its key "
                "(without --cassette replay)"
            )
        shown = ", ".join(str(d) for d in directories)
        return Plan(
            f"replaying {shown} (the recorded traffic of {model}): no key, no network",
            lambda logs: _replayed(card, directories, logs, announce),
            replay=True,
        )
    if served_control(card):
        return Plan(
            f"re-running {model} against serve-controls on loopback (a scripted control "
            "served over its provider's wire format, as it was recorded): no key",
            lambda logs: _served(root, card, logs),
        )
    try:
        check_key(model, None, {}, what="reproduce", lent=False)
    except CassetteRefused as refused:
        hint = "; or replay its recorded traffic with no key: --cassette replay"
        raise ReproduceError(f"{refused}{hint if cassette_dirs(root, card) else ''}") from None
    return Plan(
        f"re-running {model} live (the key from your environment)",
        lambda logs: _live(root, card, logs),
    )


def reproduce(
    root: Path,
    log_dir: Path | None = None,
    *,
    cassette: str = "off",
    announce: Callable[[str], None] = lambda line: None,
) -> Reproduction:
    """Re-run (or replay) the submission at `root` and compare its headline (ReproduceError
    if it does not validate, holds no transcript, or cannot be reproduced here)."""
    verdict = validate(root, cassettes=False)
    if not verdict.ok:
        raise ReproduceError(f"{root}: does not validate: {verdict.refusals[0]}")
    if not verdict.transcript or verdict.card is None:
        raise ReproduceError(f"{root}: no transcript: nothing to reproduce")
    card = verdict.card
    how = plan(root, card, cassette, announce)
    announce(f"reproduce {card.family}/{card.submission_id}: {how.line}")
    with tempfile.TemporaryDirectory(prefix="cc-reproduce-") as tmp:
        rerun = Verdict(str(root), card=card, samples=how.play(Path(log_dir or tmp)))
    _check_rerun(verdict, rerun)
    return Reproduction(
        f"{card.family}/{card.submission_id}",
        card.model.id,
        _headline(verdict, root),
        _headline(rerun, root)[0],
        how.replay,
    )


def _check_rerun(submitted: Verdict, rerun: Verdict) -> None:
    """The re-run passes integrity and plays the submission's runs, each once."""
    failed = [s for s in rerun.samples if s.failure is not None]
    if failed:
        raise ReproduceError(
            f"the re-run's sample {failed[0].id} fails integrity: {failed[0].failure}"
        )
    want = sorted((s.id, s.epoch) for s in submitted.samples)
    got = sorted((s.id, s.epoch) for s in rerun.samples)
    if got != want:
        raise ReproduceError(
            f"the re-run plays {len(got)} run(s) (sample, epoch), the submission "
            f"{len(want)}; not the same runs, so no comparison"
        )


def record(board: Path, root: Path, done: Reproduction) -> Path:
    """Write a reproduced submission into `board`/reproduced.yaml (sorted, one entry each)."""
    path = board / RECORD_NAME
    marks = read_marks(board)
    marks[done.key] = {
        "digest": folder_digest(root),
        "model": done.model,
        "rerun_mean": round(done.rerun, 6),
        "date": datetime.date.today().isoformat(),
    }
    path.write_text(yaml.safe_dump(dict(sorted(marks.items())), sort_keys=True))
    return path
