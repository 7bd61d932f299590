"""The sample set a submission must cover: the family's public set (or, for a family with
seasons, a season's part of it), for every declared epoch. No cherry-picking."""

from __future__ import annotations

import functools
from typing import Any

from checkout_consent.families import family
from checkout_consent.leaderboard.seasons import task_sets


@functools.cache
def public_samples(name: str) -> dict[str, dict[str, Any]]:
    """Sample id -> scenario (as logged) of the family's public task set."""
    from checkout_consent import _registry

    spec = family(name)
    task = getattr(_registry, spec.task)(**spec.public_args)
    return {str(s.id): dict((s.metadata or {})["scenario"]) for s in task.dataset}


def expected_units(name: str, task_set: str, epochs: int) -> set[tuple[str, int]]:
    """(sample id, epoch) of every run the submission must hold."""
    chosen = task_sets(name)[task_set]
    ids = [i for i, scenario in public_samples(name).items()
           if chosen is None or scenario["scenario_id"] in chosen]
    return {(i, e) for i in ids for e in range(1, epochs + 1)}


def coverage(name: str, task_set: str, epochs: int,
             played: list[tuple[str, int]]) -> list[str]:
    """Why the runs played are not exactly the expected set; empty when they are."""
    want = expected_units(name, task_set, epochs)
    have = set(played)
    out = []
    if len(played) != len(have):
        out.append("a (sample, epoch) appears more than once across the logs")
    if missing := sorted(want - have):
        out.append(f"{len(missing)} run(s) of the {task_set} set missing, e.g. "
                   f"{', '.join(f'{i} epoch {e}' for i, e in missing[:3])} (no cherry-picking)")
    if extra := sorted(have - want):
        out.append(f"{len(extra)} run(s) outside the {task_set} set for {epochs} epoch(s), "
                   f"e.g. {', '.join(f'{i[:40]} epoch {e}' for i, e in extra[:3])}")
    return out
