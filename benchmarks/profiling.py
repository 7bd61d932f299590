"""Where a run's CPU goes: one warm `inspect_ai.eval` under cProfile (never timed; a
tracer inflates everything), its own time summed by package, and the top entries."""

from __future__ import annotations

import cProfile
import pstats
import resource
from typing import Any


def package(filename: str) -> str:
    """The package a profiled function belongs to: ours, an installed one, or stdlib."""
    if "/checkout_consent/" in filename:
        return "checkout_consent (ours)"
    if "site-packages/" in filename:
        return filename.split("site-packages/", 1)[1].split("/", 1)[0].removesuffix(".py")
    if filename.startswith("~") or filename.startswith("<"):
        return "builtins (C calls, any caller)"
    return "stdlib (any caller)"


def by_package(stats: pstats.Stats) -> dict[str, float]:
    """Own (tottime) seconds per package of the profiled call graph."""
    totals: dict[str, float] = {}
    for (filename, _, _), (_, _, tottime, _, _) in stats.stats.items():  # type: ignore[attr-defined]
        group = package(filename)
        totals[group] = totals.get(group, 0.0) + tottime
    return dict(sorted(totals.items(), key=lambda kv: -kv[1]))


def children_cpu() -> float:
    """CPU seconds (user + system) of this process's finished child processes."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def profile_eval(
    task: str, model: str, task_args: dict[str, Any], log_dir: str, top: int = 25
) -> None:
    """Run once warm (imports, caches), then once under cProfile; print the summary."""
    from inspect_ai import eval as inspect_eval

    def once() -> None:
        inspect_eval(task, model=model, task_args=task_args, log_dir=log_dir, display="none")

    once()
    before = children_cpu()
    profiler = cProfile.Profile()
    profiler.runcall(once)
    children = children_cpu() - before
    stats = pstats.Stats(profiler)
    total = sum(by_package(stats).values())
    print(
        f"\nprofile of {task} with {model} {task_args}: {total:.2f} s own time under cProfile"
        f"; child processes (not profiled, not slowed): {children:.2f} s CPU"
    )
    for group, seconds in list(by_package(stats).items())[:10]:
        print(f"  {group:18s} {seconds:7.2f} s  {100 * seconds / total:5.1f}%")
    stats.sort_stats("tottime").print_stats(top)
