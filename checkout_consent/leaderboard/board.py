"""The board's content, from validated submissions: per world its views (All time and one
per season), ranked model rows with rank bands, then rows never ranked. Every figure comes
from the re-graded records, never from the card's claims."""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from checkout_consent.core.consent import breach_rate
from checkout_consent.core.headline import Figure
from checkout_consent.core.stats import Interval, pass_hat_k
from checkout_consent.families import WORLDS, world_named
from checkout_consent.leaderboard import bracket as controls
from checkout_consent.leaderboard.submission import (
    MAX_FILE_BYTES,
    Card,
    folder_digest,
    season_of,
    season_tasks,
    seasons,
)
from checkout_consent.leaderboard.validate import Verdict, shared_grades, validate
from checkout_consent.runtime import untrusted

GAP_KEY = "gap_cents"  # in a record's `totals`: a gap column, reported, never ranked
RECORD_NAME = "reproduced.yaml"  # beside submissions/: the maintainers' file, never a PR's
# Re-grading is a pure function of a folder's bytes: each distinct folder is re-graded once.
_VERDICTS: dict[tuple[str, str], Verdict] = {}


@dataclass(frozen=True)
class Entry:
    card: Card
    path: str  # the submission folder, relative to the leaderboard/ folder
    runs: tuple[tuple[str, str, int, dict], ...]  # (sample id, scenario id, epoch, record)
    tokens: tuple[int, int]
    cost_list: float | None
    cost_normalized: float
    season: int | None
    reproduced: bool = False  # a maintainer re-ran it (leaderboard/reproduced.yaml)
    partial: tuple[int, int] | None = None  # (runs, of the set): part of it, never ranked

    @property
    def world(self) -> str:
        """The world the card names."""
        return self.card.family

    @property
    def ranked(self) -> bool:
        return self.card.kind == "model" and bool(self.runs) and self.partial is None

    def on(self, tasks: frozenset[str] | None) -> Entry:
        """This entry restricted to the runs of `tasks` (None: all), coverage counted on them."""
        if tasks is None:
            return self
        runs = tuple(r for r in self.runs if r[1] in tasks)
        part = None if self.partial is None else (len(runs), len(tasks) * self.card.epochs)
        return dataclasses.replace(self, runs=runs, partial=part)

    def per_task(self) -> dict[str, list[dict]]:
        out: dict[str, list[dict]] = defaultdict(list)
        for task, _, _, record in self.runs:
            out[task].append(record)
        return out

    def interval(self) -> Interval:
        """The world's headline over this entry's runs, with its 95% interval."""
        got = world_named(self.world).headline.figure([(task, r) for task, _, _, r in self.runs])
        if got is None:
            return Interval(0.0, 0.0, 0.0, 0)
        return Interval(got.value, got.low, got.high, got.tasks)

    def consent(self) -> Figure | None:
        """The consent-breach rate over this entry's runs; None for a world that moves no money."""
        world = world_named(self.world)
        runs = [(task, r) for task, _, _, r in self.runs]
        return breach_rate(world.family, runs) if world.moves_money else None

    def gap(self) -> float | None:
        """Mean over tasks of the runs' `totals.gap_cents` in dollars (None: none reports one)."""
        per_task = [
            [g for r in rs if (g := (r.get("totals") or {}).get(GAP_KEY)) is not None]
            for rs in self.per_task().values()
        ]
        means = [sum(gs) / len(gs) / 100 for gs in per_task if gs]
        return sum(means) / len(means) if means else None

    def pass_k(self) -> float | None:
        """pass^k at k = the declared epochs (None with one epoch)."""
        if self.card.epochs < 2 or not self.runs:
            return None
        passed = world_named(self.world).headline.passed
        if passed is None:
            return None
        trials = [(task, passed(r)) for task, _, _, r in self.runs]
        return pass_hat_k(trials, self.card.epochs)


def entry(verdict: Verdict, path: Path) -> Entry:
    card = verdict.card
    assert card is not None and verdict.ok
    runs = tuple(
        sorted(
            (s.id, str((s.scenario or {}).get("scenario_id", s.id)), s.epoch, s.record)
            for s in verdict.samples
            if s.record is not None
        )
    )
    listed, normalized = verdict.costs()
    return Entry(
        card,
        path.as_posix(),
        runs,
        verdict.tokens,
        listed,
        normalized,
        season_of(card.family, card.task_set),
        partial=verdict.partial,
    )


@dataclass(frozen=True)
class Row:
    entry: Entry
    rank: str  # "1", "=2" (tied within CI with another row), "" for controls and unranked
    mean: float
    low: float
    high: float
    n: int
    pass_k: float | None
    gap: float | None = None  # dollars, when the records report a gap (GAP_KEY)
    consent: Figure | None = None  # the consent-breach rate (a world that moves money)
    bracket: controls.Bracket | None = None  # the idle and reference controls on its tasks

    @property
    def standing(self) -> str:
        """Where the row stands against the controls (`leaderboard.bracket.standing`)."""
        return controls.standing(self.entry.world, self.mean, self.bracket)

    @property
    def at_idle(self) -> bool:
        """No better than the idle control on the same tasks: listed, never ranked."""
        return controls.at_idle(self.entry.world, self.mean, self.bracket)


@dataclass(frozen=True)
class View:
    world: str  # the world's name
    title: str  # "" for a family without seasons
    note: str
    rows: tuple[Row, ...]
    unranked: tuple[Entry, ...]  # stored and listed, no transcript


def read_marks(board: Path) -> dict[str, dict[str, Any]]:
    """`board`/reproduced.yaml: <family>/<id> -> its record (empty when there is none)."""
    try:
        raw = untrusted.read_bytes(board / RECORD_NAME, MAX_FILE_BYTES)
    except untrusted.Refused:  # none (or a link, or not a file): nothing is reproduced
        return {}
    data = yaml.safe_load(raw.decode("utf-8")) or {}
    return {str(k): dict(v) for k, v in data.items() if isinstance(v, dict)}


def reproduced(board: Path, folder: Path) -> bool:
    """Whether the submission in `folder` is recorded as reproduced, with these bytes."""
    mark = read_marks(board).get(f"{folder.parent.name}/{folder.name}")
    return mark is not None and mark.get("digest") == folder_digest(folder)


def refused(root: Path) -> list[str]:
    """One line per submission folder under `root` that does not validate (left off the board)."""
    folders = sorted(p for p in root.glob("*/*") if p.is_dir())
    return [
        f"{folder}: refused: {verdict.refusals[0]}"
        for folder in folders
        if not (verdict := validated(folder)).ok
    ]


def load(root: Path) -> dict[str, list[Entry]]:
    """Every submission under `root` that validates, re-graded, by its world's name."""
    out: dict[str, list[Entry]] = {w.name: [] for w in WORLDS}
    with shared_grades():  # each log read once, however many folders compare with it
        verdicts = [(f, validated(f)) for f in sorted(p for p in root.glob("*/*") if p.is_dir())]
    for folder, verdict in verdicts:
        if not verdict.ok:
            continue
        made = entry(verdict, folder.relative_to(root.parent))
        out.setdefault(made.world, []).append(
            dataclasses.replace(made, reproduced=reproduced(root.parent, folder))
        )
    return out


def validated(folder: Path) -> Verdict:
    """`validate` without cassette replay (CI replays them), once per folder content."""
    key = (f"{folder.parent.name}/{folder.name}", folder_digest(folder))
    if key not in _VERDICTS:
        _VERDICTS[key] = validate(folder, cassettes=False)
    return _VERDICTS[key]


def _row(e: Entry) -> Row:
    ci = e.interval()
    got = controls.bracket(e.world, (r[0] for r in e.runs))
    return Row(e, "", ci.mean, ci.low, ci.high, ci.n, e.pass_k(), e.gap(), e.consent(), got)


def rank_bands(rows: list[Row], higher_is_better: bool = True) -> list[Row]:
    """Rank = 1 + the rows whose CI lies wholly better than this row's; equal ranks tie."""
    better = (lambda o, r: o.low > r.high) if higher_is_better else (lambda o, r: o.high < r.low)
    ranks = [1 + sum(1 for o in rows if better(o, r)) for r in rows]
    return [
        dataclasses.replace(r, rank=f"={k}" if ranks.count(k) > 1 else str(k))
        for r, k in zip(rows, ranks, strict=True)
    ]


def _view(
    label: str, title: str, note: str, entries: list[Entry], rank_humans: bool = False
) -> View:
    """The world's rows: ranked models, then those never ranked (unless `rank_humans`: people)."""
    higher = world_named(label).headline.higher_is_better
    sign = -1.0 if higher else 1.0
    key = lambda r: (sign * r.mean, r.entry.card.submission_id)  # noqa: E731
    ranked = ("model", "human") if rank_humans else ("model",)
    whole = [e for e in entries if e.partial is None]
    models = sorted((_row(e) for e in whole if e.runs and e.card.kind in ranked), key=key)
    floor = [r for r in models if r.at_idle]
    humans = [] if rank_humans else _rows_of(whole, "human", key)
    part = sorted((_row(e) for e in entries if e.partial and e.card.kind != "control"), key=key)
    references = _rows_of(entries, "control", key)
    unranked = tuple(e for e in entries if not e.runs)
    bands = rank_bands([r for r in models if not r.at_idle], higher)
    return View(label, title, note, tuple(bands + floor + humans + part + references), unranked)


def _rows_of(entries: list[Entry], kind: str, key: Callable[[Row], Any]) -> list[Row]:
    return sorted((_row(e) for e in entries if e.card.kind == kind and e.runs), key=key)


def views(label: str, entries: list[Entry], rank_humans: bool = False) -> list[View]:
    """The world's views; with seasons, All time (on Season 1's tasks), then one per season."""
    if not seasons(label):
        return [_view(label, "", "", entries, rank_humans)]
    first = season_tasks(label, 1)
    note = f"every submission, on Season 1's {len(first)} tasks"
    out = [_view(label, "All time", note, _on(entries, first), rank_humans)]
    for s in seasons(label):
        tasks = season_tasks(label, s)
        mine = _on([e for e in entries if e.season == s], tasks)
        out.append(_view(label, f"Season {s}", f"{len(tasks)} tasks", mine, rank_humans))
    return out


def _on(entries: list[Entry], tasks: frozenset[str]) -> list[Entry]:
    """The entries restricted to `tasks` (one that ran none of them is left out)."""
    return [e.on(tasks) for e in entries if not e.runs or e.on(tasks).runs]


def board(root: Path, rank_humans: bool = False) -> list[View]:
    """Every world's views; `rank_humans` ranks people's rows with the models'."""
    loaded = load(root)
    return [v for name in sorted(loaded) for v in views(name, loaded[name], rank_humans)]
