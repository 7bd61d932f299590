"""`checkout-consent shopkit run` and `grade`: sanity first, then each adapter run is
graded in a fresh copy of the seed; epochs repeat a run and report the spread."""

from __future__ import annotations

import statistics
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

from checkout_consent.shopkit.dataset import brief, build_tree
from checkout_consent.shopkit.grading import grade_build, sanity
from checkout_consent.shopkit.record import GradeReport
from checkout_consent.shopkit.sandbox.adapters import Adapter
from checkout_consent.shopkit.sandbox.sandbox import materialise


class SanityFailed(RuntimeError):
    """The negative control failed: no result may be reported."""


class Run(NamedTuple):
    task: str
    epoch: int
    report: GradeReport
    metadata: dict[str, Any]


def require_sanity() -> None:
    problems = sanity()
    if problems:
        raise SanityFailed("sanity shopkit: " + "; ".join(problems))


def run_once(task: str, adapter: Adapter, epoch: int = 1) -> Run:
    """A fresh copy of the seed, the adapter's edits, then the grade."""
    with tempfile.TemporaryDirectory(prefix="shopkit-run-") as tmp:
        build = Path(tmp, "build")
        build.mkdir()
        materialise(dict(build_tree("seed")), build)
        metadata = adapter(build, brief(task))
        return Run(task, epoch, grade_build(build, task), metadata)


def run_many(tasks: Sequence[str], adapter: Adapter, epochs: int = 1) -> list[Run]:
    require_sanity()
    return [run_once(t, adapter, e) for t in tasks for e in range(1, epochs + 1)]


def spread(values: Sequence[float]) -> str:
    if len(values) < 2:
        return f"{values[0]:.4f}" if values else "n/a"
    return (
        f"mean {statistics.mean(values):.4f}  sd {statistics.pstdev(values):.4f}  "
        f"min {min(values):.4f}  max {max(values):.4f}  (n={len(values)})"
    )


def summary(runs: Sequence[Run]) -> list[str]:
    lines = []
    for task in dict.fromkeys(r.task for r in runs):
        mine = [r.report for r in runs if r.task == task]
        lines.append(f"{task}  change {spread([r.change for r in mine])}")
        lines.append(f"{' ' * len(task)}  regress {spread([r.regress for r in mine])}")
        lines.append(f"{' ' * len(task)}  regress_extra {spread([r.regress_extra for r in mine])}")
    return lines


def as_json(report: GradeReport) -> dict[str, Any]:
    out: dict[str, Any] = report.model_dump(mode="json")
    out["seconds"] = round(report.seconds, 3)
    return out
