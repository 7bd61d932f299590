"""The bootstrap interval's resample draws: `Stream.below` called once per draw (how
`core.stats.bootstrap_ci` drew them until 2026-12-07) against `Stream.below_each` (one numpy
batch, what it draws now), side by side in one process, for the sample sizes the worlds use
(storefront's 10 seeds, pizza's 40 tasks, 400 = 40 tasks x 10 epochs). Both give the same
indices (checked here); the figure is CPU seconds per interval of 2,000 resamples.

    python benchmarks/bootstrap.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from checkout_consent.core.rng import Stream, derive  # noqa: E402
from checkout_consent.core.stats import BOOTSTRAP_SEED, RESAMPLES  # noqa: E402


def one_by_one(n: int) -> np.ndarray:
    draw = Stream(derive(BOOTSTRAP_SEED, "pizza", "bootstrap", str(n)))
    count = n * RESAMPLES
    return np.fromiter((draw.below(n) for _ in range(count)), dtype=np.int64, count=count)


def at_once(n: int) -> np.ndarray:
    draw = Stream(derive(BOOTSTRAP_SEED, "pizza", "bootstrap", str(n)))
    return draw.below_each(n, n * RESAMPLES)


def cpu(fn, n: int, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        fn(n)
        best = min(best, time.process_time() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="best of this many (default 5)")
    args = parser.parse_args()
    print(f"{'n':>5}  {'one by one (s)':>15}  {'at once (s)':>12}  {'ratio':>7}")
    for n in (10, 40, 400):
        assert one_by_one(n).tolist() == at_once(n).tolist(), n
        slow, fast = cpu(one_by_one, n, args.repeat), cpu(at_once, n, args.repeat)
        print(f"{n:>5}  {slow:>15.4f}  {fast:>12.4f}  {slow / fast:>6.1f}x")


if __name__ == "__main__":
    main()
