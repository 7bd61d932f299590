"""Summary statistics every family shares: a seeded bootstrap 95% interval, and pass^k."""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import NamedTuple

import numpy as np

from checkout_consent.core.rng import Stream, derive

BOOTSTRAP_SEED = 20261015
RESAMPLES = 2000


class Interval(NamedTuple):
    mean: float
    low: float
    high: float
    n: int


def bootstrap_ci(
    values: Sequence[float],
    *,
    family: str,
    level: float = 0.95,
    resamples: int = RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
    statistic: str = "mean",
) -> Interval:
    """Percentile bootstrap of the mean (or the median, held in `Interval.mean`), resampling
    sorted values with core/rng, so the interval depends on the scores, not their order."""
    if statistic not in ("mean", "median"):
        raise ValueError(f"bootstrap of {statistic!r}: mean or median")
    values, n = sorted(values), len(values)
    if n == 0:
        return Interval(0.0, 0.0, 0.0, 0)
    draw = Stream(derive(seed, family, "bootstrap", str(n)))
    index = draw.below_each(n, n * resamples).reshape(resamples, n)
    drawn = np.asarray(values, dtype=np.float64)[index]
    if statistic == "median":
        means = sorted(float(m) for m in np.median(drawn, axis=1))
        centre = float(statistics.median(values))
    else:
        means = sorted(float(m) for m in drawn.sum(axis=1) / n)
        centre = sum(values) / n
    tail = (1 - level) / 2
    low = means[math.floor(tail * resamples)]
    high = means[math.ceil((1 - tail) * resamples) - 1]
    return Interval(centre, low, high, n)


def pass_hat_k(trials: Iterable[tuple[str, bool]], k: int) -> float:
    """pass^k: the chance that k epochs drawn without replacement all pass, mean over tasks
    (C(c, k) / C(n, k) per task: tau-bench's estimator)."""
    by_task: dict[str, list[bool]] = defaultdict(list)
    for task_id, passed in trials:
        by_task[task_id].append(passed)
    if not by_task:
        return 0.0
    if k < 1 or any(len(v) < k for v in by_task.values()):
        raise ValueError(f"pass^{k} needs at least {k} epochs of every task")
    return sum(math.comb(sum(v), k) / math.comb(len(v), k) for v in by_task.values()) / len(by_task)


def pass_hat_ks(trials: Sequence[tuple[str, bool]]) -> dict[int, float]:
    """pass^k for k = 1 .. the fewest epochs any task has."""
    counts: dict[str, int] = defaultdict(int)
    for task_id, _ in trials:
        counts[task_id] += 1
    top = min(counts.values(), default=0)
    return {k: pass_hat_k(trials, k) for k in range(1, top + 1)}
