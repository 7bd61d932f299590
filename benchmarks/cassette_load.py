"""What the hardened cassette loading costs, and how fast it refuses a bomb. Prints figures;
asserts nothing (machines are shared).

1. Refusing a legacy YAML alias bomb of under 1 KB (it expands to 9**9 strings) with the
   bounded loader, against reading the 10-seed reference's compact cassette.
2. Reading that cassette with every check (`store.read_compact`: strict validation, every
   request's check digest) against plain `json.loads` of it.
3. Replay's preflight of that directory (names, links, secret scan, run.json, goldens).

Each pair is measured alternately, 7 pairs; median and range are printed.

Run from the top of the checkout: python benchmarks/cassette_load.py
"""

from __future__ import annotations

import gzip
import json
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from checkout_consent.cassettes import load, store
from checkout_consent.cassettes.preflight import check_directory

TEN_SEEDS = store.CASSETTE_ROOT / "storefront" / "openai--storefront-oracle"
PAIRS = 7


def alias_bomb() -> str:
    text = 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
    for previous, name in zip("abcdefgh", "bcdefghi", strict=True):
        text += f"{name}: &{name} [" + ",".join([f"*{previous}"] * 9) + "]\n"
    return text + "interactions: [*i]\nversion: 1\n"


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
    with tempfile.TemporaryDirectory() as tmp:
        bomb = Path(tmp) / "bomb.yaml.gz"
        bomb.write_bytes(gzip.compress(alias_bomb().encode()))
        refused, real = pairs(lambda: load.load_unit(bomb), lambda: store.read_compact(units[0]))
    print(f"alias bomb: {len(alias_bomb())} bytes of YAML; {PAIRS} alternating pairs")
    print(show("refusing the alias bomb (bounded loader)", refused))
    print(show("reading the compact cassette, checked", real))

    def plain() -> None:
        for u in units:
            json.loads(load.read_unit(u).decode())

    def checked() -> None:
        for u in units:
            store.read_compact(u)

    new, old = pairs(checked, plain)
    print(f"\n10-seed reference, {len(units)} file(s); {PAIRS} alternating pairs")
    print(show("compact cassette, every check", new))
    print(show("plain json.loads", old))
    ratio = statistics.median(new) / statistics.median(old)
    print(f"{'ratio of medians (checked / plain)':<46} {ratio:.2f}")
    checks, _ = pairs(lambda: check_directory(TEN_SEEDS), lambda: None)
    print(show("\nreplay preflight of the directory", checks))


if __name__ == "__main__":
    main()
