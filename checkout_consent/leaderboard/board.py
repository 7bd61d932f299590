"""The board's content: per family, the views (grocery: All time and one per season), each
a ranked table of model rows with rank bands, then control rows as references."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from checkout_consent.families import FAMILIES
from checkout_consent.leaderboard.entries import Entry, entry
from checkout_consent.leaderboard.headline import headline
from checkout_consent.leaderboard.seasons import SEASONED_FAMILIES, SEASONS, season_tasks
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


@dataclass(frozen=True)
class View:
    family: str
    title: str  # "" for a family without seasons
    note: str
    rows: tuple[Row, ...]
    unranked: tuple[Entry, ...]  # stored and listed, no transcript


def load(root: Path) -> dict[str, list[Entry]]:
    """Every submission under `root` (`<family>/<id>/`), re-graded; BoardError on a refusal."""
    out: dict[str, list[Entry]] = {f.name: [] for f in FAMILIES}
    for folder in sorted(p for p in root.glob("*/*") if p.is_dir()):
        verdict = _validated(folder)
        if not verdict.ok:
            raise BoardError(f"{folder}: refused: {verdict.refusals[0]}")
        assert verdict.card is not None
        out.setdefault(verdict.card.family, []).append(
            entry(verdict, folder.relative_to(root.parent)))
    return out


def _digest(folder: Path) -> str:
    h = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file() and not p.is_symlink()):
        h.update(path.relative_to(folder).as_posix().encode() + b"\0")
        h.update(hashlib.sha256(path.read_bytes()).digest())
    return h.hexdigest()


def _validated(folder: Path) -> Verdict:
    """`validate` without cassette replay (CI replays them), once per folder content."""
    key = (f"{folder.parent.name}/{folder.name}", _digest(folder))
    if key not in _VERDICTS:
        _VERDICTS[key] = validate(folder, cassettes=False)
    return _VERDICTS[key]


def _row(e: Entry) -> Row:
    ci = e.interval()
    return Row(e, "", ci.mean, ci.low, ci.high, ci.n, e.pass_k(), e.gap())


def rank_bands(rows: list[Row]) -> list[Row]:
    """Rank = 1 + the rows whose CI lies wholly above this row's; equal ranks are ties."""
    ranks = [1 + sum(1 for o in rows if o.low > r.high) for r in rows]
    out = []
    for r, k in zip(rows, ranks, strict=True):
        out.append(Row(r.entry, f"={k}" if ranks.count(k) > 1 else str(k), r.mean, r.low,
                       r.high, r.n, r.pass_k, r.gap))
    return out


def _view(family: str, title: str, note: str, entries: list[Entry]) -> View:
    key = lambda r: (-r.mean, r.entry.card.submission_id)  # noqa: E731
    models = sorted((_row(e) for e in entries if e.ranked), key=key)
    controls = sorted((_row(e) for e in entries if e.card.kind == "control" and e.runs), key=key)
    unranked = tuple(e for e in entries if not e.runs)
    return View(family, title, note, tuple(rank_bands(models) + controls), unranked)


def views(family: str, entries: list[Entry]) -> list[View]:
    """The family's views; for grocery, All time (every submission on Season 1's tasks)
    then one per season (that season's submissions on its tasks)."""
    if family not in SEASONED_FAMILIES:
        return [_view(family, "", "", entries)]
    out = [_view(family, "All time", "every submission, on Season 1's seven tasks",
                 [e.on(season_tasks(1)) for e in entries])]
    for s in SEASONS:
        tasks = season_tasks(s)
        mine = [e.on(tasks) for e in entries if e.season == s]
        out.append(_view(family, f"Season {s}", f"{len(tasks)} tasks", mine))
    return out


def board(root: Path) -> list[View]:
    loaded = load(root)
    return [v for name in sorted(loaded) for v in views(name, loaded[name])]


def passed_note(family: str) -> str:
    return headline(family).passed_means
