"""Paired timing for benchmarks: run a measured command and its reference alternately, in
fresh processes, and report median and range of CPU and wall time, peak memory, and the
ratio. Nothing here runs under a tracer; per-child figures come from `os.wait4`.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@dataclass(frozen=True)
class Figures:
    """One run of one command: CPU (user + system) and wall seconds, peak RSS in MB."""

    cpu: float
    wall: float
    peak_mb: float


def env() -> dict[str, str]:
    """The child environment: this checkout first on the path, no colour, no key."""
    path = os.environ.get("PYTHONPATH", "")
    return {**os.environ, "PYTHONPATH": REPO + (os.pathsep + path if path else ""), "NO_COLOR": "1"}


def run(argv: Sequence[str]) -> Figures:
    """Run `argv` in a fresh process (output discarded) and return its own figures."""
    start = time.perf_counter()
    child = subprocess.Popen(
        list(argv), env=env(), cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    stderr = child.stderr.read().decode() if child.stderr else ""
    if child.returncode != 0:
        raise SystemExit(f"failed ({child.returncode}): {' '.join(argv)}\n{stderr[-2000:]}")
    return Figures(usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss / 1024)


def spread(values: Sequence[float]) -> str:
    return f"{statistics.median(values):7.2f} ({min(values):.2f}-{max(values):.2f})"


def paired(
    name: str,
    measured: Sequence[str],
    reference: Sequence[str],
    *,
    pairs: int = 5,
    target: float | None = None,
) -> float:
    """Alternate `measured` and `reference` `pairs` times; print and return the median of
    the per-pair CPU ratios."""
    print(f"\n{name}\n  measured:  {' '.join(measured)}\n  reference: {' '.join(reference)}")
    ours: list[Figures] = []
    refs: list[Figures] = []
    for i in range(pairs):
        first, second = (measured, reference) if i % 2 == 0 else (reference, measured)
        a, b = run(first), run(second)
        ours.append(a if first is measured else b)
        refs.append(b if first is measured else a)
    ratios = [o.cpu / r.cpu for o, r in zip(ours, refs, strict=True)]
    walls = [o.wall / r.wall for o, r in zip(ours, refs, strict=True)]
    print(f"  {pairs} alternating pairs; median (range)")
    print(
        f"  CPU s      measured {spread([o.cpu for o in ours])}  "
        f"reference {spread([r.cpu for r in refs])}"
    )
    print(
        f"  wall s     measured {spread([o.wall for o in ours])}  "
        f"reference {spread([r.wall for r in refs])}"
    )
    print(
        f"  peak MB    measured {spread([o.peak_mb for o in ours])}  "
        f"reference {spread([r.peak_mb for r in refs])}"
    )
    met = target is not None and statistics.median(ratios) <= target
    verdict = "" if target is None else f"  target <= {target:.2f}x: {'met' if met else 'MISSED'}"
    print(f"  ratio CPU  {spread(ratios)}x   wall {spread(walls)}x{verdict}")
    return statistics.median(ratios)


def python(*args: str) -> list[str]:
    return [sys.executable, *args]


def inspect_cli(*args: str) -> list[str]:
    """`inspect ...` run by this interpreter (the same environment as the measured side)."""
    return python("-m", "inspect_ai._cli.main", *args)


def timed(fn: Callable[[], object]) -> float:
    """Wall seconds of one in-process call (no tracer)."""
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def in_process_pairs(
    a: Callable[[], object], b: Callable[[], object], n: int
) -> list[tuple[float, float]]:
    """n alternating in-process (a, b) timings; the order within a pair flips each time."""
    out = []
    for i in range(n):
        if i % 2:
            tb, ta = timed(b), timed(a)
        else:
            ta, tb = timed(a), timed(b)
        out.append((ta, tb))
    return out
