"""Saved-trace grading (`checkout-consent score`): time and peak memory against trace
length, to show both grow linearly. Prints figures; asserts nothing (machines are shared).

Each length is graded in alternating order, 5 rounds; the table shows the median and range
of the seconds, microseconds per call, and the peak traced memory per call (measured in a
separate pass, since tracing slows the timed one). Linear means the per-call figures stay
flat as the length grows tenfold.

Run: python benchmarks/saved_trace.py
"""

from __future__ import annotations

import statistics
import time
import tracemalloc

from checkout_consent.core.offline import grade_saved
from checkout_consent.storefront import WORLD

LENGTHS = (10_000, 30_000, 100_000)
ROUNDS = 5


def trace(n: int) -> list[dict[str, object]]:
    """n calls on day 1 (notes until the note cap, then refused notes), no end_day."""
    return [{"tool": "take_note", "args": {"text": f"note {i}"}} for i in range(n)]


def timed(calls: list[dict[str, object]]) -> float:
    start = time.perf_counter()
    grade_saved(WORLD, WORLD.dataset.task("2"), calls)
    return time.perf_counter() - start


def peak_bytes(calls: list[dict[str, object]]) -> int:
    tracemalloc.start()
    grade_saved(WORLD, WORLD.dataset.task("2"), calls)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def main() -> None:
    traces = {n: trace(n) for n in LENGTHS}
    seconds: dict[int, list[float]] = {n: [] for n in LENGTHS}
    for r in range(ROUNDS):  # alternate the order each round
        for n in LENGTHS if r % 2 == 0 else tuple(reversed(LENGTHS)):
            seconds[n].append(timed(traces[n]))
    print(f"{'calls':>8} {'median s':>9} {'range s':>15} {'us/call':>8} {'peak B/call':>12}")
    for n in LENGTHS:
        med = statistics.median(seconds[n])
        low, high = min(seconds[n]), max(seconds[n])
        print(
            f"{n:>8,} {med:>9.3f} {low:>7.3f}-{high:<7.3f} {med / n * 1e6:>8.1f} "
            f"{peak_bytes(traces[n]) / n:>12.0f}"
        )
    first, last = LENGTHS[0], LENGTHS[-1]
    ratio = statistics.median(seconds[last]) / statistics.median(seconds[first])
    print(f"time ratio {last:,} / {first:,} calls: {ratio:.1f} (linear: {last / first:.1f})")


if __name__ == "__main__":
    main()
