"""Seasons, for a world whose board declares them (`Board.seasons`): Season 1 holds the
original public tasks and each later season adds some. A submission's season is the newest
one whose task set it played, so a season's board is a function of that season's
submissions only (frozen by construction)."""

from __future__ import annotations

from checkout_consent.families import member, world


def _seasons(name: str) -> dict[int, tuple[str, ...]]:
    return dict(member(world(name)).board.seasons())


def seasons(name: str) -> tuple[int, ...]:
    return tuple(sorted(_seasons(name)))


def season_tasks(name: str, season: int) -> frozenset[str]:
    """The task ids a season's board is played on: its own and every earlier season's."""
    added = _seasons(name)
    return frozenset(t for s in sorted(added) if s <= season for t in added[s])


def task_sets(name: str) -> dict[str, frozenset[str] | None]:
    """The task sets a card may declare: "public" (None: the family's whole public set) and,
    for a family with seasons, "season-<k>"."""
    sets: dict[str, frozenset[str] | None] = {"public": None}
    sets |= {f"season-{s}": season_tasks(name, s) for s in seasons(name)}
    return sets


def season_of(name: str, task_set: str) -> int | None:
    """The season a submission belongs to (None for a family without seasons)."""
    known = seasons(name)
    if not known:
        return None
    return int(task_set.removeprefix("season-")) if task_set.startswith("season-") else known[-1]
