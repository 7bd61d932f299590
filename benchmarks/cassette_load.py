"""What the hardened cassette loading costs. Prints figures; asserts nothing (machines are
shared).

1. Reading the 10-seed reference's compact cassette with every check (`store.read_compact`:
   strict validation, every request's check digest) against plain `json.loads` of it.
2. Replay's preflight of that directory (names, links, secret scan, run.json, goldens).

Each pair is measured alternately, 7 pairs; median and range are printed.

Run from the top of the checkout: python benchmarks/cassette_load.py
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable

from checkout_consent.cassettes import load, store
from checkout_consent.cassettes.preflight import check_directory

TEN_SEEDS = store.CASSETTE_ROOT / "storefront" / "openai--storefront-oracle"
PAIRS = 7


def once(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    try:
        fn()
    except load.CassetteRefused:
        pass
    return time.perf_counter() - start


def pairs(a: Callable[[], object], b: Callable[[], object]) -> tuple[list[float], list[float]]:
    once(a), once(b)  # warm
    first, second = [], []
    for _ in range(PAIRS):
        first.append(once(a))
        second.append(once(b))
    return first, second


def show(label: str, runs: list[float]) -> str:
    ms = [r * 1000 for r in runs]
    return (
        f"{label:<46} median {statistics.median(ms):8.2f} ms  range {min(ms):.2f}-{max(ms):.2f} ms"
    )


def main() -> None:
    units = store.cassette_files(TEN_SEEDS)

    def plain() -> None:
        for u in units:
            json.loads(load.read_gzip(u, load.MAX_CASSETTE_BYTES).decode())

    def checked() -> None:
        for u in units:
            store.read_compact(u)

    new, old = pairs(checked, plain)
    print(f"10-seed reference, {len(units)} file(s); {PAIRS} alternating pairs")
    print(show("compact cassette, every check", new))
    print(show("plain json.loads", old))
    ratio = statistics.median(new) / statistics.median(old)
    print(f"{'ratio of medians (checked / plain)':<46} {ratio:.2f}")
    checks, _ = pairs(lambda: check_directory(TEN_SEEDS), lambda: None)
    print(show("\nreplay preflight of the directory", checks))


if __name__ == "__main__":
    main()
