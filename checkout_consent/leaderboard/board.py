"""The board's content: per world (a family's main world, then each variant: its own table),
the views (with seasons: All time and one per season), each a ranked table of model rows
with rank bands, then people's rows (never ranked with the models unless asked), then
control rows as references."""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from checkout_consent.core.headline import Figure
from checkout_consent.families import WORLDS
from checkout_consent.leaderboard.entries import Entry, entry
from checkout_consent.leaderboard.headline import headline
from checkout_consent.leaderboard.reproduce import reproduced
from checkout_consent.leaderboard.seasons import season_tasks, seasons
from checkout_consent.leaderboard.validate import validate
from checkout_consent.leaderboard.verdict import Verdict

# Re-grading is a pure function of a folder's bytes (for this checkout), so a process that
# builds twice (the tests, `--check` after a build) re-grades each distinct folder once.
_VERDICTS: dict[tuple[str, str], Verdict] = {}


class BoardError(ValueError):
    """A submission on the board does not validate."""


@dataclass(frozen=True)
class Row:
    entry: Entry
    rank: str  # "1", "=2" (tied within CI with another row), "" for controls and unranked
    mean: float
    low: float
    high: float
    n: int
    pass_k: float | None
    gap: float | None = None  # dollars, when the records report a gap (entries.GAP_KEY)
    consent: Figure | None = None  # the consent-breach rate (a world that moves money)


@dataclass(frozen=True)
class View:
    world: str  # the world's label: `family` or `family/variant`
    title: str  # "" for a family without seasons
    note: str
    rows: tuple[Row, ...]
    unranked: tuple[Entry, ...]  # stored and listed, no transcript


def load(root: Path) -> dict[str, list[Entry]]:
    """Every submission under `root` (`<family>/<id>/`), re-graded, by the label of the world
    its card names; BoardError on a refusal."""
    out: dict[str, list[Entry]] = {w.label: [] for w in WORLDS}
    for folder in sorted(p for p in root.glob("*/*") if p.is_dir()):
        verdict = validated(folder)
        if not verdict.ok:
            raise BoardError(f"{folder}: refused: {verdict.refusals[0]}")
        assert verdict.card is not None
        made = entry(verdict, folder.relative_to(root.parent))
        out.setdefault(made.world, []).append(
            dataclasses.replace(made, reproduced=reproduced(root.parent, folder))
        )
    return out


def _digest(folder: Path) -> str:
    h = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file() and not p.is_symlink()):
        h.update(path.relative_to(folder).as_posix().encode() + b"\0")
        h.update(hashlib.sha256(path.read_bytes()).digest())
    return h.hexdigest()


def validated(folder: Path) -> Verdict:
    """`validate` without cassette replay (CI replays them), once per folder content."""
    key = (f"{folder.parent.name}/{folder.name}", _digest(folder))
    if key not in _VERDICTS:
        _VERDICTS[key] = validate(folder, cassettes=False)
    return _VERDICTS[key]


def _row(e: Entry) -> Row:
    ci = e.interval()
    return Row(e, "", ci.mean, ci.low, ci.high, ci.n, e.pass_k(), e.gap(), e.consent())


def rank_bands(rows: list[Row], higher_is_better: bool = True) -> list[Row]:
    """Rank = 1 + the rows whose CI lies wholly better than this row's; equal ranks are
    ties."""
    if higher_is_better:
        ranks = [1 + sum(1 for o in rows if o.low > r.high) for r in rows]
    else:
        ranks = [1 + sum(1 for o in rows if o.high < r.low) for r in rows]
    return [
        dataclasses.replace(r, rank=f"={k}" if ranks.count(k) > 1 else str(k))
        for r, k in zip(rows, ranks, strict=True)
    ]


def _view(
    world: str, title: str, note: str, entries: list[Entry], rank_humans: bool = False
) -> View:
    """The world's rows: ranked models, then people (ranked with the models only when
    `rank_humans`), then partial runs (part of their task set: never ranked), then
    controls."""
    sign = -1.0 if headline(world).higher_is_better else 1.0
    key = lambda r: (sign * r.mean, r.entry.card.submission_id)  # noqa: E731
    ranked = ("model", "human") if rank_humans else ("model",)
    whole = [e for e in entries if e.partial is None]
    models = sorted((_row(e) for e in whole if e.runs and e.card.kind in ranked), key=key)
    humans = [] if rank_humans else _rows_of(whole, "human", key)
    part = sorted((_row(e) for e in entries if e.partial and e.card.kind != "control"), key=key)
    controls = _rows_of(entries, "control", key)
    unranked = tuple(e for e in entries if not e.runs)
    bands = rank_bands(models, headline(world).higher_is_better)
    return View(world, title, note, tuple(bands + humans + part + controls), unranked)


def _rows_of(entries: list[Entry], kind: str, key: Callable[[Row], Any]) -> list[Row]:
    return sorted((_row(e) for e in entries if e.card.kind == kind and e.runs), key=key)


def views(world: str, entries: list[Entry], rank_humans: bool = False) -> list[View]:
    """The world's views; for a world with seasons, All time (every submission on Season
    1's tasks) then one per season (that season's submissions on its tasks)."""
    if not seasons(world):
        return [_view(world, "", "", entries, rank_humans)]
    first = season_tasks(world, 1)
    out = [
        _view(
            world,
            "All time",
            f"every submission, on Season 1's {len(first)} tasks",
            [e.on(first) for e in entries],
            rank_humans,
        )
    ]
    for s in seasons(world):
        tasks = season_tasks(world, s)
        mine = [e.on(tasks) for e in entries if e.season == s]
        out.append(_view(world, f"Season {s}", f"{len(tasks)} tasks", mine, rank_humans))
    return out


def board(root: Path, rank_humans: bool = False) -> list[View]:
    """Every world's views; `rank_humans` ranks people's rows with the models' (a reader's
    own build: the committed board never does)."""
    loaded = load(root)
    return [v for name in sorted(loaded) for v in views(name, loaded[name], rank_humans)]


def passed_note(world: str) -> str:
    return headline(world).passed_means
