"""Grocery store speed: search_catalog latency at 2,212 and 100,000 SKUs, carts scored per
second, and where the time goes (cProfile). Prints figures; asserts nothing about time.

Run: PYTHONPATH=. python benchmarks/grocery.py
"""

from __future__ import annotations

import cProfile
import io
import pstats
import time
from collections.abc import Callable

from checkout_consent.core.world import apply, evolve
from checkout_consent.grocery import dataset, initial
from checkout_consent.grocery.actions import ACTIONS
from checkout_consent.grocery.authoring.catalogs import generated_catalog
from checkout_consent.grocery.catalog import Catalog
from checkout_consent.grocery.grader import score
from checkout_consent.grocery.record import Efficiency
from checkout_consent.grocery.state import Cart, Line, State
from checkout_consent.grocery.submission import score_submission

WORDS = ("potatoes", "oat milk", "organic", "store basics eggs", "chips",
         "golden acre coffee 12 oz", "gluten free bread", "frozen peas", "xyzzy", "salsa")
QUERIES: list[dict[str, object]] = [{"query": q} for q in WORDS]
QUERIES += [{"query": "apples", "department": "produce", "dietary": "vegan", "max_price": 3.5},
            {"query": "cheddar", "dietary": "vegetarian"}]


def _pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def bench_search(state: State, rounds: int) -> None:
    """Wall time (includes preemption by other processes on a shared host) and this
    thread's CPU time (excludes it) per call."""
    wall, cpu = [], []
    for _ in range(rounds):
        for args in QUERIES:
            start, start_cpu = time.perf_counter(), time.thread_time()
            step = apply(ACTIONS, state, "search_catalog", args)
            cpu.append((time.thread_time() - start_cpu) * 1000)
            wall.append((time.perf_counter() - start) * 1000)
            assert step.ok
    print(f"search_catalog @ {len(state.catalog.products):>7,} SKUs ({len(wall)} calls): "
          f"wall p50 {_pct(wall, .5):.3f} p99 {_pct(wall, .99):.3f} max {max(wall):.3f} ms; "
          f"cpu p50 {_pct(cpu, .5):.3f} p99 {_pct(cpu, .99):.3f} ms")


def carts(state: State, n: int) -> list[Cart]:
    """n deterministic carts of 3 to 12 lines drawn from the catalog's first SKUs."""
    ps = state.catalog.products
    return [Cart(lines=tuple(Line(ps[(i * 37 + j * 101) % len(ps)].sku, 1 + (i + j) % 4)
                             for j in range(3 + i % 10)), submitted=True) for i in range(n)]


def bench_score(state: State, n: int) -> Callable[[], None]:
    cs = carts(state, n)

    def run() -> None:
        for c in cs:
            score(state.brief, state.catalog, c, scored_on=None, efficiency=Efficiency())
    start = time.perf_counter()
    run()
    took = time.perf_counter() - start
    print(f"scoring: {n / took:,.0f} carts/s ({took / n * 1e6:.0f} us per cart, "
          f"{state.brief.task_id})")
    return run


def bench_submissions(state: State, n: int) -> None:
    """The submission path end to end: validation (pydantic), cart building, scoring."""
    data = [{"task_id": state.brief.task_id, "agent_card": {
        "model": "m", "tools": [], "store_snapshot": "v3.0", "seed": 0, "time_s": 1.0,
        "token_cost": 0.0}, "cart": {"lines": [{"sku": ln.sku, "quantity": ln.quantity}
                                               for ln in c.lines]}} for c in carts(state, n)]
    start = time.perf_counter()
    for d in data:
        score_submission(d)
    print(f"score_submission: {n / (time.perf_counter() - start):,.0f} submissions/s")


def profile(run: Callable[[], None], label: str) -> None:
    prof = cProfile.Profile()
    prof.runcall(run)
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(8)
    body = [ln for ln in out.getvalue().splitlines() if ln.strip()][3:14]
    print(f"where the time goes ({label}, top functions by own time):")
    print("\n".join("   " + ln for ln in body))


def _initial(task: str) -> State:
    return initial(dataset.scenario(task))


def main() -> None:
    base = _initial("sale-week")
    bench_search(base, 200)
    start = time.perf_counter()
    big = Catalog("bench-100k", generated_catalog("3.0", 100_000).products)
    print(f"(100,000-SKU catalog generated and indexed in {time.perf_counter() - start:.1f} s)")
    big_state = evolve(base, catalog=big)
    bench_search(big_state, 50)
    def searches() -> None:
        for args in QUERIES * 5:
            apply(ACTIONS, big_state, "search_catalog", args)
    profile(searches, "search at 100k")
    run = bench_score(_initial("normal-week"), 5000)
    run = bench_score(base, 5000)
    profile(run, "scoring sale-week")
    bench_submissions(base, 5000)


if __name__ == "__main__":
    main()
