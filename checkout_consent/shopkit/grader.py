"""Grading a replayed shopkit run: the final tree, judged on both axes. Pure: the judge,
which executes the tree (grading.grade_tree), is handed in by the family's __init__."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from checkout_consent.core import Replay, Scenario, Turns
from checkout_consent.shopkit.record import GradeReport, ShopkitRecord
from checkout_consent.shopkit.state import State

Judge = Callable[[Mapping[str, str], str], GradeReport]  # (final tree, task) -> both axes


def changed_files(initial: State, state: State) -> tuple[str, ...]:
    """Paths added, edited or removed since the start."""
    seed, final = initial.tree(), state.tree()
    return tuple(sorted(p for p in set(seed) | set(final) if seed.get(p) != final.get(p)))


def grade(
    scenario: Scenario, replay: Replay[State], turns: Turns, *, judge: Judge
) -> ShopkitRecord:
    state = replay.final
    report = judge(state.tree(), state.task)
    return ShopkitRecord(
        task=state.task,
        change=report.change,
        regress=report.regress,
        change_passed=sum(a.passed for a in report.change_assertions),
        change_total=len(report.change_assertions),
        regress_broken=report.broken,
        regress_total=len(report.regress_assertions),
        regress_extra=report.regress_extra,
        regress_extra_broken=report.extra_broken,
        regress_extra_total=len(report.regress_extra_assertions),
        build_error=report.build_error,
        change_assertions=report.change_assertions,
        regress_assertions=report.regress_assertions,
        regress_extra_assertions=report.regress_extra_assertions,
        files_changed=changed_files(replay.initial, state),
        edits=state.edits,
        runs=len(state.runs),
        finished=state.finished,
        landlock=report.landlock,
    )


def metrics(record: ShopkitRecord) -> dict[str, float]:
    """The three axes, each reduced separately by Inspect (never pooled)."""
    return {
        "change": record.change,
        "regress": record.regress,
        "regress_extra": record.regress_extra,
    }


def explain(record: ShopkitRecord) -> str:
    if record.build_error:
        first = record.build_error.strip().splitlines()[-1][:160]
        return f"{record.task}: the build does not import ({first}): change 0, regress 0"
    return (
        f"{record.task}: change {record.change:.4f} ({record.change_passed}/"
        f"{record.change_total}), regress {record.regress:.4f} ({record.regress_broken} of "
        f"{record.regress_total} broken), regress_extra {record.regress_extra:.4f} "
        f"({record.regress_extra_broken} of {record.regress_extra_total} broken); "
        f"files changed: {', '.join(record.files_changed) or 'none'}"
    )
