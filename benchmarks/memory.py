"""Where a long run's memory goes: a diagnostic, not a timing (tracemalloc slows a run
2-10x). Runs storefront's oracle through `runtime.runner.run_models` in this process, and
each time the scorer has finished a checkpoint's number of samples prints the process's
RSS, the asyncio tasks alive (Inspect starts one per sample up front), the samples in
flight, and the live Python objects by type that grew since the previous checkpoint; with
--tracemalloc N it also diffs tracemalloc snapshots (N frames per allocation site).

    python benchmarks/memory.py 1000 --at 300,600,900                # objects by type
    python benchmarks/memory.py 700 --at 300,500,700 --tracemalloc 1  # + allocation sites
    python benchmarks/memory.py 10000 --at 40,300 --stop              # a big run's start
    python benchmarks/memory.py 1000 --at 300,600,900 --max-samples 0 # Inspect's default
                                                                      # concurrency
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import gc
import os
import resource
import sys
import tempfile
import time
import tracemalloc
from typing import Any

from checkout_consent.families import world_named
from checkout_consent.runtime import runner, scorer


def rss_mb() -> float:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


class Checkpoints:
    """Called after each graded sample; reports at the chosen counts."""

    def __init__(self, at: list[int], frames: int, stop: bool) -> None:
        self.at, self.frames, self.stop = at, frames, stop
        self.done, self.start = 0, time.process_time()
        self.counts: collections.Counter[str] | None = None
        self.snapshot: tracemalloc.Snapshot | None = None

    def sample_graded(self) -> None:
        self.done += 1
        if self.done in self.at:
            self.report()
            if self.stop and self.done == self.at[-1]:
                sys.stdout.flush()
                os._exit(0)  # a diagnostic: the rest of the run is not wanted

    def report(self) -> None:
        gc.collect()
        from inspect_ai.solver import TaskState

        objects = gc.get_objects()
        counts = collections.Counter(type(o).__name__ for o in objects)
        flight = sum(type(o) is TaskState and not o.completed for o in objects)
        print(
            f"== {self.done} samples graded: RSS {rss_mb():.1f} MB, CPU "
            f"{time.process_time() - self.start:.1f} s, asyncio tasks "
            f"{len(asyncio.all_tasks())}, samples in flight {flight}, "
            f"objects {sum(counts.values())}",
            flush=True,
        )
        if self.counts is not None:
            grown = (counts - self.counts).most_common(15)
            print("   grew: " + ", ".join(f"{name} +{n}" for name, n in grown))
        self.counts = counts
        del objects
        if self.frames:
            self.report_sites()

    def report_sites(self) -> None:
        snapshot = tracemalloc.take_snapshot().filter_traces(
            [tracemalloc.Filter(False, tracemalloc.__file__)]
        )
        traced = tracemalloc.get_traced_memory()[0] / 2**20
        print(f"   traced {traced:.1f} MB")
        if self.snapshot is not None:
            key = "traceback" if self.frames > 1 else "lineno"
            for stat in snapshot.compare_to(self.snapshot, key)[:12]:
                where = " <- ".join(
                    f"{f.filename.split('site-packages/')[-1]}:{f.lineno}" for f in stat.traceback
                )
                print(f"   {stat.size_diff / 2**20:+7.2f} MB {stat.count_diff:+8d} blocks  {where}")
        self.snapshot = snapshot


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("samples", type=int)
    ap.add_argument("--at", required=True, help="checkpoints: graded-sample counts, e.g. 300,600")
    ap.add_argument("--tracemalloc", type=int, default=0, metavar="FRAMES")
    ap.add_argument("--stop", action="store_true", help="exit at the last checkpoint")
    ap.add_argument("--no-realtime", action="store_true", help="as unwatched runs are")
    ap.add_argument(
        "--max-samples",
        type=int,
        default=None,
        help="Inspect's max_samples (0: Inspect's own default, adaptive)",
    )
    ap.add_argument(
        "--log-buffer",
        type=int,
        default=None,
        help="Inspect's log_buffer (default: runner.log_buffer, as `run` passes "
        "it; 0: Inspect's own default)",
    )
    args = ap.parse_args()
    checkpoints = Checkpoints(
        sorted(int(a) for a in args.at.split(",")), args.tracemalloc, args.stop
    )
    graded = scorer.grade_state

    def grade_state(*a: Any) -> Any:
        score = graded(*a)
        checkpoints.sample_graded()
        return score

    scorer.grade_state = grade_state  # type: ignore[assignment]
    if args.tracemalloc:
        tracemalloc.start(args.tracemalloc)
    if args.max_samples == 0:  # Inspect's own default (adaptive), not the runner's cap
        runner.CONTROL_MAX_SAMPLES = None  # type: ignore[assignment]
    extra: dict[str, Any] = {"max_samples": args.max_samples} if args.max_samples else {}
    buffer = runner.log_buffer(args.samples) if args.log_buffer is None else args.log_buffer
    extra["log_buffer"] = buffer or None
    concurrency = {None: runner.CONTROL_MAX_SAMPLES, 0: "Inspect's"}
    print(
        f"storefront oracle, {args.samples} samples, in process, realtime "
        f"{'off' if args.no_realtime else 'on'}, max_samples "
        f"{concurrency.get(args.max_samples, args.max_samples)}, log_buffer "
        f"{buffer or 'Inspect' + chr(39) + 's'}"
    )
    with tempfile.TemporaryDirectory() as logs:
        runner.run_models(
            world_named("storefront"),
            ["control/storefront-oracle"],
            task_args={"seeds": f"0-{args.samples - 1}"},
            log_dir=logs,
            log_realtime=not args.no_realtime,
            **extra,
        )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"end: RSS {rss_mb():.1f} MB, peak {peak:.1f} MB, CPU "
        f"{time.process_time() - checkpoints.start:.1f} s"
    )


if __name__ == "__main__":
    main()
