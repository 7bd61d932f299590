"""How long grading one shopkit build takes: every change and regress assertion, executed
in the confined subprocess (reference expectations are computed once, before timing)."""

from __future__ import annotations

import statistics
import time

from checkout_consent.shopkit.grading import (
    ALL_PROBES,
    grade_build,
    reference_dir,
    reference_values,
    seed_dir,
)


def main(repeats: int = 20) -> None:
    reference_values()
    timings = []
    for i in range(repeats):
        build = seed_dir() if i % 2 else reference_dir()
        started = time.perf_counter()
        grade_build(build, "T4")
        timings.append(time.perf_counter() - started)
    print(f"shopkit: grading one build ({len(ALL_PROBES)} assertions: all change and regress) "
          f"takes median {statistics.median(timings) * 1000:.0f} ms, max "
          f"{max(timings) * 1000:.0f} ms over {repeats} builds")


if __name__ == "__main__":
    main()
