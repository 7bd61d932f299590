"""`checkout-consent reproduce SUBMISSION`: a maintainer re-runs the card's model on the
submission's samples (the key comes from the maintainer's environment) and compares the
headline with the submission's: reproduced when the re-run's mean lies within the
submission's 95% CI. `--record` writes the result to `leaderboard/reproduced.yaml`, which
the board reads to mark the row `reproduced` (only while the folder's bytes are the ones
re-run: the record holds their digest)."""

from __future__ import annotations

import datetime
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from checkout_consent.families import world
from checkout_consent.leaderboard.entries import entry
from checkout_consent.leaderboard.folder import list_folder
from checkout_consent.leaderboard.grading import regrade
from checkout_consent.leaderboard.headline import label_of
from checkout_consent.leaderboard.validate import validate
from checkout_consent.leaderboard.verdict import Verdict

RECORD_NAME = "reproduced.yaml"  # beside submissions/: the maintainers' file, never a PR's


class ReproduceError(ValueError):
    """The submission cannot be reproduced at all (one line: why)."""


@dataclass(frozen=True)
class Reproduction:
    key: str  # <family>/<submission_id>
    model: str
    claimed: tuple[float, float, float]  # the submission's headline mean and 95% CI
    rerun: float  # the re-run's headline mean

    @property
    def ok(self) -> bool:
        return self.claimed[1] <= self.rerun <= self.claimed[2]

    def line(self) -> str:
        mean, low, high = self.claimed
        word = "REPRODUCED" if self.ok else "NOT REPRODUCED"
        return (
            f"{word}  {self.key}: {self.model} re-run gives {self.rerun:.4f}; the "
            f"submission's headline {mean:.4f} (95% CI {low:.4f} to {high:.4f})"
        )


def _headline(verdict: Verdict, root: Path) -> tuple[float, float, float]:
    """The board's headline of a verdict: one place, the board's own Entry."""
    ci = entry(verdict, root).interval()
    return ci.mean, ci.low, ci.high


def _rerun(root: Path, verdict: Verdict, log_dir: Path) -> Verdict:
    """The card's model re-run with each submitted log's task arguments, re-graded."""
    from checkout_consent.runtime.runner import run_models

    card = verdict.card
    assert card is not None
    out = Verdict(str(root), card=card)
    for log in list_folder(root).logs():
        args: dict[str, Any] = regrade(root / log).task_args
        [run] = run_models(
            world(label_of(card.family, card.world_version)),
            [card.model.id],
            task_args=args,
            epochs=card.epochs,
            log_dir=log_dir,
        )
        out.samples += regrade(Path(run.log_path)).samples
    failed = [s for s in out.samples if s.failure is not None]
    if failed:
        raise ReproduceError(
            f"the re-run's sample {failed[0].id} fails integrity: {failed[0].failure}"
        )
    return out


def reproduce(root: Path, log_dir: Path | None = None) -> Reproduction:
    """Re-run the submission at `root` and compare its headline (ReproduceError if the
    submission does not validate or holds no transcript)."""
    verdict = validate(root, cassettes=False)
    if not verdict.ok:
        raise ReproduceError(f"{root}: does not validate: {verdict.refusals[0]}")
    if not verdict.transcript or verdict.card is None:
        raise ReproduceError(f"{root}: no transcript: nothing to reproduce")
    with tempfile.TemporaryDirectory(prefix="cc-reproduce-") as tmp:
        rerun = _rerun(root, verdict, Path(log_dir or tmp))
    card = verdict.card
    return Reproduction(
        f"{card.family}/{card.submission_id}",
        card.model.id,
        _headline(verdict, root),
        _headline(rerun, root)[0],
    )


def folder_digest(root: Path) -> str:
    from checkout_consent.leaderboard.board import _digest

    return _digest(root)


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


def read_marks(board: Path) -> dict[str, dict[str, Any]]:
    """`board`/reproduced.yaml: <family>/<id> -> its record (empty when there is none)."""
    path = board / RECORD_NAME
    if not path.is_file() or path.is_symlink():
        return {}
    data = yaml.safe_load(path.read_text()) or {}
    return {str(k): dict(v) for k, v in data.items() if isinstance(v, dict)}


def reproduced(board: Path, folder: Path) -> bool:
    """Whether the submission in `folder` is recorded as reproduced, with these bytes."""
    mark = read_marks(board).get(f"{folder.parent.name}/{folder.name}")
    return mark is not None and mark.get("digest") == folder_digest(folder)
