"""Grocery seasons, per the grocery seed's "Tasks and seasons": Season 1 holds the original
seven public tasks, Season 2 adds tight-week, Season 3 adds size-week, oos-hard-week and
promo-decoy-week. A submission's season is the newest one whose task set it played, so a
season's board is a function of that season's submissions only (frozen by construction)."""

from __future__ import annotations

SEASON_1 = ("normal-week", "budget-week", "pantry-first-week", "leftover-week", "party-week",
            "out-of-stock-week", "sale-week")
ADDED = {1: SEASON_1, 2: ("tight-week",), 3: ("size-week", "oos-hard-week", "promo-decoy-week")}
SEASONS = tuple(sorted(ADDED))
SEASONED_FAMILIES = frozenset({"grocery"})


def season_tasks(season: int) -> frozenset[str]:
    """The task ids a season's board is played on: its own and every earlier season's."""
    return frozenset(t for s in SEASONS if s <= season for t in ADDED[s])


def task_sets(family: str) -> dict[str, frozenset[str] | None]:
    """The task sets a card may declare: "public" (None: the family's whole public set) and,
    for a seasoned family, "season-<k>"."""
    sets: dict[str, frozenset[str] | None] = {"public": None}
    if family in SEASONED_FAMILIES:
        sets |= {f"season-{s}": season_tasks(s) for s in SEASONS}
    return sets


def season_of(family: str, task_set: str) -> int | None:
    """The season a submission belongs to (None for a family without seasons)."""
    if family not in SEASONED_FAMILIES:
        return None
    return int(task_set.removeprefix("season-")) if task_set.startswith("season-") else SEASONS[-1]
