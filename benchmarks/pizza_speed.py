"""Offline speed of the pizza family: every control played against the pure world and
graded, timed in alternating pairs against the world alone (the grading overhead), and
the bootstrap. Prints figures and ratios measured side by side in one run; asserts nothing
(machines are shared). Memory is measured in a separate, untimed pass: nothing is timed
under tracemalloc.

Run: python benchmarks/pizza_speed.py [--pairs 7]
"""

from __future__ import annotations

import argparse
import statistics
import tracemalloc

from pairs import in_process_pairs as pairs
from pairs import timed

from checkout_consent.core.offline import play, play_and_grade
from checkout_consent.core.scenario import Scenario
from checkout_consent.core.stats import bootstrap_ci
from checkout_consent.pizza import WORLD
from checkout_consent.pizza.dataset import public_tasks, scenario_of


def describe(label: str, got: list[tuple[float, float]], unit_of: int) -> str:
    a, b = [x for x, _ in got], [y for _, y in got]
    ratio = [y / x for x, y in got]
    return (
        f"{label:<24} world {statistics.median(a) * 1e6 / unit_of:7.1f} us/task "
        f"[{min(a) * 1e6 / unit_of:.1f}-{max(a) * 1e6 / unit_of:.1f}]  world+grade "
        f"{statistics.median(b) * 1e6 / unit_of:7.1f} us/task "
        f"[{min(b) * 1e6 / unit_of:.1f}-{max(b) * 1e6 / unit_of:.1f}]  ratio "
        f"{statistics.median(ratio):.2f} [{min(ratio):.2f}-{max(ratio):.2f}]"
    )


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pairs", type=int, default=7)
    n = max(5, ap.parse_args(argv).pairs)
    scenarios: list[Scenario] = [scenario_of(t) for t in public_tasks()]
    print(
        f"pizza: {len(scenarios)} public tasks, {n} alternating pairs per control, median [min-max]"
    )
    for name, policy in WORLD.controls.items():
        got = pairs(
            lambda p=policy: [play(WORLD, s, p) for s in scenarios],
            lambda p=policy: [play_and_grade(WORLD, s, p) for s in scenarios],
            n,
        )
        print(describe(f"pizza-{name}", got, len(scenarios)))
    values = [float(i % 2) for i in range(40)]
    boot = [timed(lambda: bootstrap_ci(values, family="pizza")) for _ in range(n)]
    print(
        f"bootstrap (40 values, 2000 resamples): median {statistics.median(boot) * 1000:.1f} ms "
        f"[{min(boot) * 1000:.1f}-{max(boot) * 1000:.1f}]"
    )
    tracemalloc.start()  # untimed: memory only, every record kept alive
    kept = [play_and_grade(WORLD, s, p) for p in WORLD.controls.values() for s in scenarios]
    print(
        f"peak traced memory, {len(kept)} graded records kept (untimed pass): "
        f"{tracemalloc.get_traced_memory()[1] / 1e6:.2f} MB"
    )
    tracemalloc.stop()


if __name__ == "__main__":
    main()
