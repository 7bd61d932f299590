"""Storefront adversary v1's pure world, paired. Prints figures; asserts nothing.

Simulated days per second of the 30-day world with no Inspect and no tracer: each
control's offline traces (idle, gullible, cautious, oracle; seeds 0..N-1) replayed through
the actions, with the world generated inside the timing, alternated with the same replays
on worlds generated beforehand (the actions-only ceiling); then generation alone.
Target (issue 14): >= 20,000 simulated days/s including generation.

    python benchmarks/storefront_v1.py [--seeds 40] [--pairs 7]
"""

from __future__ import annotations

import argparse
import statistics

from pairs import in_process_pairs, timed

from checkout_consent.core.offline import play
from checkout_consent.core.trace import replay
from checkout_consent.storefront_v1 import WORLD, dataset
from checkout_consent.storefront_v1.generate import generate

TARGET = 20_000


def spread(values: list[float]) -> str:
    v = sorted(values)
    return f"{statistics.median(v):>9,.0f} ({v[0]:,.0f}-{v[-1]:,.0f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=40)
    parser.add_argument("--pairs", type=int, default=7)
    opts = parser.parse_args()
    task_file, seeds = dataset.load_task_file(), range(opts.seeds)
    days = int(task_file["days"]) * opts.seeds
    worlds = [generate(task_file, s) for s in seeds]
    print(
        f"storefront adversary_v1, {opts.seeds} seeds x {task_file['days']} days; "
        f"{opts.pairs} alternating pairs, median (range); no tracer"
    )
    print(
        f"  {'control':<9} {'calls/run':>9}  {'days/s incl. generation':>26}  "
        f"{'days/s actions only':>26}  target >= {TARGET:,}"
    )
    for name in WORLD.controls.sanity:
        traces = [play(WORLD, dataset.scenario(s), WORLD.controls[name]).calls for s in seeds]
        pairs = in_process_pairs(
            lambda traces=traces: [
                replay(WORLD.actions, generate(task_file, s), t)
                for s, t in zip(seeds, traces, strict=True)
            ],
            lambda traces=traces: [
                replay(WORLD.actions, w, t) for w, t in zip(worlds, traces, strict=True)
            ],
            opts.pairs,
        )
        with_gen = [days / a for a, _ in pairs]
        verdict = "met" if statistics.median(with_gen) >= TARGET else "MISSED"
        calls = sum(len(t) for t in traces) / opts.seeds
        print(
            f"  {name:<9} {calls:>9,.0f}  {spread(with_gen):>26}  "
            f"{spread([days / b for _, b in pairs]):>26}  {verdict}"
        )
    gen = [
        timed(lambda: [generate(task_file, s) for s in seeds]) / opts.seeds * 1e6
        for _ in range(opts.pairs)
    ]
    print(
        f"  generation alone: {statistics.median(gen):,.0f} us per world "
        f"(range {min(gen):,.0f}-{max(gen):,.0f})"
    )


if __name__ == "__main__":
    main()
