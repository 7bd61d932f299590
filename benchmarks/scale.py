"""Scale: `checkout-consent run storefront --model control/storefront-oracle --seeds 0-N`
at N+1 = 100, 1,000 and 10,000 samples, each in a fresh process with Inspect's plain
display (its progress lines). Prints peak memory (RSS), the RSS sampled every 2 s at each
quarter of the run (memory that stops growing is the point), CPU and wall time, the
marginal CPU per sample between sizes, and how many progress lines the run printed. One
run per size: this reports memory, it is not a paired timing.

    python benchmarks/scale.py                  # 100, 1000, 10000
    python benchmarks/scale.py 100 1000         # chosen sizes
    python benchmarks/scale.py --interrupt 20   # Ctrl-C (SIGINT) a 10,000-sample run after
                                                # 20 s: how long it takes to stop, its exit
                                                # status, and what it printed after
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass

from pairs import REPO, env, python

POLL_S = 2.0


def argv(samples: int, log_dir: str, display: str = "plain") -> list[str]:
    return python(
        "-m",
        "checkout_consent.cli",
        "--log-dir",
        log_dir,
        "run",
        "storefront",
        "--model",
        "control/storefront-oracle",
        "--seeds",
        f"0-{samples - 1}",
        "--display",
        display,
    )


def rss_mb(pid: int) -> float | None:
    try:
        with open(f"/proc/{pid}/status") as status:
            line = next(x for x in status if x.startswith("VmRSS:"))
    except (OSError, StopIteration):
        return None
    return int(line.split()[1]) / 1024


@dataclass(frozen=True)
class Scaled:
    cpu: float
    wall: float
    peak_mb: float
    rss: list[float]  # sampled every POLL_S seconds
    progress_lines: int


def scale_run(samples: int, log_dir: str) -> Scaled:
    """One run: RSS sampled while it runs, then its own CPU and peak from `os.wait4`."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        start = time.perf_counter()
        child = subprocess.Popen(
            argv(samples, log_dir), env=env(), cwd=REPO, stdout=out, stderr=err
        )
        sampled: list[float] = []
        gone = os.WEXITED | os.WNOHANG | os.WNOWAIT  # has it ended? (without reaping it)
        while os.waitid(os.P_PID, child.pid, gone) is None:
            mb = rss_mb(child.pid)
            if mb is not None:
                sampled.append(mb)
            time.sleep(POLL_S)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        progress = sum("Samples:" in line for line in out)
        err.seek(0)
        if child.returncode != 0:
            raise SystemExit(
                f"failed ({child.returncode}): {' '.join(argv(samples, log_dir))}"
                f"\n{err.read()[-2000:]}"
            )
    return Scaled(usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss / 1024, sampled, progress)


def quarters(values: list[float]) -> str:
    if not values:
        return "-"
    return " / ".join(
        f"{values[min(len(values) - 1, len(values) * q // 4)]:.0f}" for q in (1, 2, 3, 4)
    )


def main(sizes: list[int]) -> None:
    print(
        "storefront, control/storefront-oracle, `checkout-consent run` (sanity offline, "
        "then the run through Inspect, --display plain), one fresh process per size"
    )
    print(
        f"{'samples':>8} {'peak RSS MB':>12} {'RSS MB at 1/4 / 2/4 / 3/4 / end':>34} "
        f"{'CPU s':>8} {'wall s':>8} {'marginal CPU ms/sample':>23} {'progress lines':>15}"
    )
    previous: tuple[int, Scaled] | None = None
    for n in sizes:
        with tempfile.TemporaryDirectory() as logs:
            got = scale_run(n, logs)
        marginal = (
            ""
            if previous is None
            else f"{1000 * (got.cpu - previous[1].cpu) / (n - previous[0]):.1f}"
        )
        print(
            f"{n:8d} {got.peak_mb:12.1f} {quarters(got.rss):>34} {got.cpu:8.1f} "
            f"{got.wall:8.1f} {marginal:>23} {got.progress_lines:15d}",
            flush=True,
        )
        previous = (n, got)


def interrupt(after: float) -> None:
    """Send SIGINT (what Ctrl-C sends) to a 10,000-sample run; report how it stops."""
    with tempfile.TemporaryDirectory() as logs:
        child = subprocess.Popen(
            argv(10_000, logs),
            env=env(),
            cwd=REPO,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
        time.sleep(after)
        sent = time.perf_counter()
        os.kill(child.pid, signal.SIGINT)
        out, err = child.communicate(timeout=120)
        took = time.perf_counter() - sent
        written = sorted(os.listdir(logs))
    said = [line for line in err.splitlines() if line.strip()]
    before = [line for line in said if line.startswith(("sanity ", "run "))]
    print(
        f"SIGINT after {after:.0f} s: exited {child.returncode} in {took:.1f} s; "
        f"progress lines before it: {sum('Samples:' in line for line in out.splitlines())}"
        f"; logs written: {written}"
    )
    print("stderr after the run began:\n  " + "\n  ".join(said[len(before) :] or ["(nothing)"]))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--interrupt"]:
        interrupt(float(sys.argv[2]))
    else:
        main([int(a) for a in sys.argv[1:]] or [100, 1000, 10_000])
