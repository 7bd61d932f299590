"""Grading a replayed shopkit run: materialise the final tree and execute it on both axes.

Pure with respect to the world: the only effects are a temporary directory and the
confined subprocess that runs the build (see sandbox.py)."""

from __future__ import annotations

import tempfile
from pathlib import Path

from checkout_consent.core.family import RunInfo, Scenario
from checkout_consent.core.trace import Replay
from checkout_consent.shopkit.grading import GradeReport, grade_build
from checkout_consent.shopkit.record import ShopkitRecord
from checkout_consent.shopkit.sandbox import materialise
from checkout_consent.shopkit.state import State

WORLD_VERSION = "shopkit-1"


def changed_files(initial: State, state: State) -> tuple[str, ...]:
    """Paths added, edited or removed since the start."""
    seed, final = initial.tree(), state.tree()
    return tuple(sorted(p for p in set(seed) | set(final) if seed.get(p) != final.get(p)))


def grade_tree(state: State) -> GradeReport:
    """Write the final tree to a temporary directory and grade it."""
    with tempfile.TemporaryDirectory(prefix="shopkit-final-") as tmp:
        try:
            materialise(state.tree(), Path(tmp))
        except (OSError, ValueError) as err:
            return GradeReport(task=state.task, change=0.0, regress=0.0, change_assertions=(),
                               regress_assertions=(), build_error=f"cannot write tree: {err}")
        return grade_build(Path(tmp), state.task)


def grade(scenario: Scenario, replay: Replay[State], run: RunInfo) -> ShopkitRecord:
    state = replay.final
    report = grade_tree(state)
    return ShopkitRecord(
        task=state.task, world_version=WORLD_VERSION, change=report.change,
        regress=report.regress,
        change_passed=sum(a.passed for a in report.change_assertions),
        change_total=len(report.change_assertions), regress_broken=report.broken,
        regress_total=len(report.regress_assertions), build_error=report.build_error,
        change_assertions=report.change_assertions,
        regress_assertions=report.regress_assertions,
        files_changed=changed_files(replay.initial, state),
        edits=state.edits, runs=len(state.runs), finished=state.finished,
        landlock=report.landlock, grade_seconds=round(report.seconds, 3),
        model_id=run.model_id, epoch=run.epoch, input_tokens=run.input_tokens,
        output_tokens=run.output_tokens, turns_used=len(run.generations),
        inspect_version=run.inspect_version, suite_version=run.suite_version,
        suite_git_sha=run.git_sha,
    )


def metrics(record: ShopkitRecord) -> dict[str, float]:
    """The two axes, reduced separately by Inspect."""
    return {"change": record.change, "regress": record.regress}


def explain(record: ShopkitRecord) -> str:
    if record.build_error:
        first = record.build_error.strip().splitlines()[-1][:160]
        return f"{record.task}: the build does not import ({first}): change 0, regress 0"
    return (f"{record.task}: change {record.change:.4f} ({record.change_passed}/"
            f"{record.change_total}), regress {record.regress:.4f} ({record.regress_broken} of "
            f"{record.regress_total} broken); files changed: "
            f"{', '.join(record.files_changed) or 'none'}")
