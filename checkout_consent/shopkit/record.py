"""The shopkit score record: both axes and every assertion (the domain only; who played
and at what cost is the run's provenance, attached by the runtime)."""

from __future__ import annotations

from checkout_consent.core import FrozenRecord


class AssertionResult(FrozenRecord):
    """One assertion on one build: what it checks, whether it held, both observations."""

    name: str
    checks: str
    passed: bool
    expected: str
    actual: str


class GradeReport(FrozenRecord):
    """A build graded on both axes: never pooled, each an assertion fraction."""

    task: str
    change: float
    regress: float
    change_assertions: tuple[AssertionResult, ...] = ()
    regress_assertions: tuple[AssertionResult, ...] = ()
    regress_extra: float = 0.0  # ours beyond the seed's 13: its own axis, never pooled
    regress_extra_assertions: tuple[AssertionResult, ...] = ()
    build_error: str | None = None
    landlock: bool = False
    seconds: float = 0.0

    @property
    def broken(self) -> int:
        return sum(not a.passed for a in self.regress_assertions)

    @property
    def extra_broken(self) -> int:
        return sum(not a.passed for a in self.regress_extra_assertions)


class ShopkitRecord(FrozenRecord):
    """One graded build. `change`, `regress` (the seed's 13) and `regress_extra` (ours
    beyond them) are assertion fractions, each its own axis, never pooled."""

    task: str
    world_version: str = ""  # stamped from eval.yaml by World.graded, never by a grader
    change: float
    regress: float
    change_passed: int
    change_total: int
    regress_broken: int
    regress_total: int
    regress_extra: float
    regress_extra_broken: int
    regress_extra_total: int
    build_error: str | None
    change_assertions: tuple[AssertionResult, ...]
    regress_assertions: tuple[AssertionResult, ...]
    regress_extra_assertions: tuple[AssertionResult, ...]
    files_changed: tuple[str, ...]
    edits: int
    runs: int
    finished: bool
    landlock: bool
    # no wall-clock value: a record is byte-identical run to run (timings: shopkit/sandbox/runs.py)
