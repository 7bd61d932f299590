"""Offline throughput of the pizza family: controls played against the pure world and graded.

Run: python benchmarks/pizza_speed.py
"""

from __future__ import annotations

import time
import tracemalloc

from checkout_consent.core.controls import ControlRegistry
from checkout_consent.pizza.controls import register
from checkout_consent.pizza.data import public_tasks
from checkout_consent.pizza.simulate import run_offline
from checkout_consent.pizza.stats import bootstrap_ci


def main() -> None:
    registry = ControlRegistry()
    register(registry)
    tasks = list(public_tasks())
    tracemalloc.start()
    for name in registry.names("pizza"):
        start = time.perf_counter()
        records = run_offline(registry.get(name), tasks)
        took = time.perf_counter() - start
        calls = sum(r.calls for r in records)
        ci = bootstrap_ci([r.score for r in records])
        print(f"{name:<22} {len(records)} tasks {calls:>4} calls  {took * 1000:7.1f} ms "
              f"({took / max(calls, 1) * 1e6:6.1f} us/call)  mean {ci.mean:.3f} "
              f"[{ci.low:.3f}, {ci.high:.3f}]")
    start = time.perf_counter()
    bootstrap_ci([float(i % 2) for i in range(40)])
    print(f"bootstrap (40 values, 2000 resamples): {(time.perf_counter() - start) * 1000:.1f} ms")
    print(f"peak traced memory: {tracemalloc.get_traced_memory()[1] / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
