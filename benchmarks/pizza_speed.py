"""Offline throughput of the pizza family: controls played against the pure world and graded.

Run: python benchmarks/pizza_speed.py
"""

from __future__ import annotations

import time
import tracemalloc

from checkout_consent.core.offline import play_and_grade
from checkout_consent.core.stats import bootstrap_ci
from checkout_consent.pizza import SPEC
from checkout_consent.pizza.dataset import public_tasks, scenario_of


def main() -> None:
    scenarios = [scenario_of(t) for t in public_tasks()]
    tracemalloc.start()
    for name, policy in SPEC.controls.items():
        start = time.perf_counter()
        records = [play_and_grade(SPEC, s, policy) for s in scenarios]
        took = time.perf_counter() - start
        calls = sum(r["calls"] for r in records)
        ci = bootstrap_ci([r["score"] for r in records], family="pizza")
        print(f"pizza-{name:<16} {len(records)} tasks {calls:>4} calls  {took * 1000:7.1f} ms "
              f"({took / max(calls, 1) * 1e6:6.1f} us/call)  mean {ci.mean:.3f} "
              f"[{ci.low:.3f}, {ci.high:.3f}]")
    start = time.perf_counter()
    bootstrap_ci([float(i % 2) for i in range(40)], family="pizza")
    print(f"bootstrap (40 values, 2000 resamples): {(time.perf_counter() - start) * 1000:.1f} ms")
    print(f"peak traced memory: {tracemalloc.get_traced_memory()[1] / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
