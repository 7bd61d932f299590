"""Grocery store speed, in alternating pairs (7 rounds; median and range of CPU and wall
time, and the ratio), nothing timed under a tracer; asserts nothing (machines are shared).

1. `search_catalog` at the task catalog (2,212 SKUs) alternated with a generated
   100,000-SKU catalog: per-call CPU and wall, p99 wall over every call (targets 2 ms and
   20 ms), and the ratio 100k / 2k.
2. Carts scored through `grader.score` alternated with the submission path end to end
   (`score_submission`: validation, cart building, scoring): carts/s each (target 2,000
   through the submission path) and the ratio.
3. Where the time goes (cProfile, a separate untimed pass).

Run: PYTHONPATH=. python benchmarks/grocery.py [--rounds 7]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import statistics
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

WORDS = (
    "potatoes",
    "oat milk",
    "organic",
    "store basics eggs",
    "chips",
    "golden acre coffee 12 oz",
    "gluten free bread",
    "frozen peas",
    "xyzzy",
    "salsa",
)
QUERIES: list[dict[str, object]] = [{"query": q} for q in WORDS]
QUERIES += [
    {"query": "apples", "department": "produce", "dietary": "vegan", "max_price": 3.5},
    {"query": "cheddar", "dietary": "vegetarian"},
]


ROUNDS, REPEAT = 7, 10  # rounds; each query's calls a round


def _pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def clocked(fn: Callable[[], object]) -> tuple[float, float]:
    """(CPU, wall) seconds of one call: this thread's CPU excludes other processes."""
    start, start_cpu = time.perf_counter(), time.thread_time()
    fn()
    return time.thread_time() - start_cpu, time.perf_counter() - start


def alternate(
    a: Callable[[], object], b: Callable[[], object], rounds: int
) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
    """`rounds` alternating (CPU, wall) timings of a and b; the order flips each round."""
    xs, ys = [], []
    for i in range(rounds):
        if i % 2:
            ys.append(clocked(b))
            xs.append(clocked(a))
        else:
            xs.append(clocked(a))
            ys.append(clocked(b))
    return xs, ys


def spread(values: list[float], fmt: str = ".3f") -> str:
    return f"{statistics.median(values):{fmt}} ({min(values):{fmt}}-{max(values):{fmt}})"


def searcher(state: State, walls: list[float]) -> Callable[[], None]:
    """Every query REPEAT times, each call's wall time (ms) kept for the p99."""

    def run() -> None:
        for args in QUERIES * REPEAT:
            start = time.perf_counter()
            step = apply(ACTIONS, state, "search_catalog", args)
            walls.append((time.perf_counter() - start) * 1000)
            assert step.ok

    return run


def bench_search(small: State, big: State, rounds: int) -> None:
    walls_small: list[float] = []
    walls_big: list[float] = []
    xs, ys = alternate(searcher(small, walls_small), searcher(big, walls_big), rounds)
    per = 1000 / (len(QUERIES) * REPEAT)
    for label, runs, walls in (("2,212", xs, walls_small), ("100,000", ys, walls_big)):
        print(
            f"  {label:>7} SKUs: per call CPU {spread([c * per for c, _ in runs])} ms, wall "
            f"{spread([w * per for _, w in runs])} ms; over {len(walls)} calls wall p99 "
            f"{_pct(walls, 0.99):.3f} ms, max {max(walls):.3f} ms"
        )
    ratios = [y[0] / x[0] for x, y in zip(xs, ys, strict=True)]
    print(f"  ratio 100k / 2k CPU {spread(ratios, '.1f')}x")


def carts(state: State, n: int) -> list[Cart]:
    """n deterministic carts of 3 to 12 lines drawn from the catalog's first SKUs."""
    ps = state.catalog.products
    return [
        Cart(
            lines=tuple(
                Line(ps[(i * 37 + j * 101) % len(ps)].sku, 1 + (i + j) % 4)
                for j in range(3 + i % 10)
            ),
            submitted=True,
        )
        for i in range(n)
    ]


def bench_scoring(state: State, n: int, rounds: int) -> Callable[[], None]:
    """grader.score alternated with score_submission over the same n carts."""
    cs = carts(state, n)
    data = [
        {
            "task": state.brief.task_id,
            "agent_card": {
                "model": "m",
                "tools": [],
                "store_snapshot": "v3.0",
                "seed": 0,
                "time_s": 1.0,
                "token_cost": 0.0,
            },
            "cart": {"lines": [{"sku": ln.sku, "quantity": ln.quantity} for ln in c.lines]},
        }
        for c in cs
    ]

    def scoring() -> None:
        for c in cs:
            score(
                state.brief,
                state.catalog,
                c,
                scored_on=None,
                efficiency=Efficiency(),
                task_catalog=state.catalog,
            )

    def submissions() -> None:
        for d in data:
            score_submission(d)

    xs, ys = alternate(scoring, submissions, rounds)
    graded, submitted = [n / c for c, _ in xs], [n / c for c, _ in ys]
    ratios = [y[0] / x[0] for x, y in zip(xs, ys, strict=True)]
    print(
        f"  {state.brief.task_id}, {n} carts: grader.score {spread(graded, ',.0f')} carts/s "
        f"(CPU), score_submission {spread(submitted, ',.0f')} carts/s (target 2,000); "
        f"ratio CPU {spread(ratios, '.2f')}x"
    )
    return scoring


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
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    rounds = max(5, parser.parse_args().rounds)
    base = _initial("sale-week")
    start = time.perf_counter()
    big = Catalog("bench-100k", generated_catalog("3.0", 100_000).products)
    print(f"(100,000-SKU catalog generated and indexed in {time.perf_counter() - start:.1f} s)")
    big_state = evolve(base, catalog=big)
    print(
        f"search_catalog, {len(QUERIES)} queries x {REPEAT} a round, {rounds} alternating "
        "rounds; median (range):"
    )
    bench_search(base, big_state, rounds)
    print(f"scoring, {rounds} alternating rounds; median (range):")
    bench_scoring(_initial("normal-week"), 1000, rounds)
    run = bench_scoring(base, 1000, rounds)

    def searches() -> None:
        for args in QUERIES * 5:
            apply(ACTIONS, big_state, "search_catalog", args)

    profile(searches, "search at 100k")
    profile(run, "scoring sale-week")


if __name__ == "__main__":
    main()
