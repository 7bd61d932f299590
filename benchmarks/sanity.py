"""How long `checkout-consent sanity FAMILY` takes (the check `run FAMILY --model M` makes
before the model plays), per family, in a fresh process each: wall and CPU seconds and the
load average it ran at. The README's figure for it comes from here.

    python benchmarks/sanity.py [FAMILY ...] [--repeat N]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time

from checkout_consent.families import WORLDS


def once(family: str) -> tuple[float, float]:
    """(wall, CPU) seconds of one `checkout-consent sanity FAMILY` in a new process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    got = subprocess.run(
        [sys.executable, "-m", "checkout_consent.cli", "sanity", family],
        capture_output=True,
        text=True,
        check=False,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if got.returncode != 0:
        raise SystemExit(f"sanity {family} failed: {got.stdout[-300:]}{got.stderr[-300:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("families", nargs="*", default=[f.name for f in WORLDS])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    print(f"load average at start: {os.getloadavg()[0]:.1f}")
    for family in args.families:
        runs = [once(family) for _ in range(args.repeat)]
        wall = statistics.median(w for w, _ in runs)
        cpu = statistics.median(c for _, c in runs)
        print(f"sanity {family:<11} median of {args.repeat}: {wall:5.1f} s wall, {cpu:5.1f} s CPU")
    print(f"load average at end: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
