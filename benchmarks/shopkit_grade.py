"""How long grading one shopkit build takes, beside the floor it cannot go under.

Each pair times, in alternating order, (a) launching the confined sandbox on the build with
no assertion to evaluate (the floor: copy, supervisor, import) and (b) grading the build
for T4 (every regress, regress_extra and T4 change assertion). Reference expectations are
computed once, before timing. Prints figures and their ratio side by side; asserts nothing.

Run: python benchmarks/shopkit_grade.py [--pairs 10]
"""

from __future__ import annotations

import argparse
import statistics
from pathlib import Path

from pairs import in_process_pairs

from checkout_consent.shopkit.assertions import CHANGE, REGRESS, REGRESS_EXTRA
from checkout_consent.shopkit.grading import grade_build, reference_dir, reference_values, seed_dir
from checkout_consent.shopkit.sandbox.execution import execute


def pairs(build: Path, n: int) -> list[tuple[float, float]]:
    """(floor, grade) wall seconds, n alternating pairs."""
    return in_process_pairs(lambda: execute(build, ()), lambda: grade_build(build, "T4"), n)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pairs", type=int, default=10)
    n = max(5, ap.parse_args(argv).pairs)
    reference_values()
    probes = len(REGRESS) + len(REGRESS_EXTRA) + len(CHANGE["T4"])
    print(
        f"shopkit: grading one build for T4 ({probes} assertions) vs the sandbox floor "
        f"(no assertion), {n} alternating pairs, median [min-max]"
    )
    for name, build in (("seed", seed_dir()), ("reference", reference_dir())):
        got = pairs(build, n)
        f, g, r = [a for a, _ in got], [b for _, b in got], [b / a for a, b in got]
        print(
            f"  {name:<9} floor {statistics.median(f) * 1000:6.1f} ms "
            f"[{min(f) * 1000:.1f}-{max(f) * 1000:.1f}]  grade "
            f"{statistics.median(g) * 1000:6.1f} ms [{min(g) * 1000:.1f}-{max(g) * 1000:.1f}]"
            f"  ratio {statistics.median(r):.2f} [{min(r):.2f}-{max(r):.2f}]"
        )


if __name__ == "__main__":
    main()
