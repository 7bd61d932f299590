"""Scale: `checkout-consent run storefront --model control/storefront-oracle --seeds 0-N`
at N+1 = 100, 1,000 and 10,000 samples, each in a fresh process; prints peak memory (RSS),
CPU and wall time, and the marginal CPU per sample between sizes. Memory that stops growing
is the point: peak RSS at 10,000 should sit near the peak at 1,000. One run per size (this
reports memory, it is not a paired timing).

    python benchmarks/scale.py                  # 100, 1000, 10000
    python benchmarks/scale.py 100 1000         # chosen sizes
    python benchmarks/scale.py --interrupt 20   # Ctrl-C (SIGINT) a 10,000-sample run after 20 s:
                                                # how long it takes to stop, its exit, last words
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time

from pairs import REPO, Figures, env, python, run


def argv(samples: int, log_dir: str, display: str = "none") -> list[str]:
    return python("-m", "checkout_consent.cli", "--log-dir", log_dir, "run", "storefront",
                  "--model", "control/storefront-oracle", "--seeds", f"0-{samples - 1}",
                  "--display", display)


def scale_run(samples: int, log_dir: str) -> Figures:
    return run(argv(samples, log_dir))


def interrupt(after: float) -> None:
    """Send SIGINT (what Ctrl-C sends) to a 10,000-sample run; report how it stops."""
    with tempfile.TemporaryDirectory() as logs:
        child = subprocess.Popen(argv(10_000, logs, display="plain"), env=env(), cwd=REPO,
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                 preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        time.sleep(after)
        sent = time.perf_counter()
        os.kill(child.pid, signal.SIGINT)
        out, _ = child.communicate(timeout=120)
        took = time.perf_counter() - sent
        written = sorted(os.listdir(logs))
    lines = [line for line in out.splitlines() if line.strip()]
    print(f"SIGINT after {after:.0f} s: exited {child.returncode} in {took:.1f} s; "
          f"logs written: {written}")
    print("progress lines seen: " + str(sum("storefront" in line and "/" in line
                                            for line in lines)))
    print("last lines:\n  " + "\n  ".join(lines[-4:]))


def main(sizes: list[int]) -> None:
    print("storefront, control/storefront-oracle, `checkout-consent run` (sanity offline, "
          "then the run through Inspect), one fresh process per size")
    print(f"{'samples':>8} {'peak RSS MB':>12} {'CPU s':>8} {'wall s':>8} "
          f"{'marginal CPU ms/sample':>24}")
    previous: tuple[int, Figures] | None = None
    for n in sizes:
        with tempfile.TemporaryDirectory() as logs:
            figures = scale_run(n, logs)
        marginal = "" if previous is None else \
            f"{1000 * (figures.cpu - previous[1].cpu) / (n - previous[0]):24.1f}"
        print(f"{n:8d} {figures.peak_mb:12.1f} {figures.cpu:8.1f} {figures.wall:8.1f} {marginal}",
              flush=True)
        previous = (n, figures)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--interrupt"]:
        interrupt(float(sys.argv[2]))
    else:
        main([int(a) for a in sys.argv[1:]] or [100, 1000, 10_000])
