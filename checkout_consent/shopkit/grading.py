"""Grade a build directory on the two axes. Expected values come from executing the
reference build (once per process); a build that does not import scores 0 on both."""

from __future__ import annotations

import functools
import re
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from checkout_consent.shopkit import dataset
from checkout_consent.shopkit.assertions import CHANGE, REGRESS, REGRESS_EXTRA, Probe, agrees
from checkout_consent.shopkit.record import AssertionResult, GradeReport
from checkout_consent.shopkit.sandbox.execution import Execution, execute
from checkout_consent.shopkit.sandbox.sandbox import Limits, materialise

TASKS = tuple(CHANGE)
ALL_PROBES: tuple[Probe, ...] = tuple(
    {
        p.name: p for p in (*REGRESS, *REGRESS_EXTRA, *(p for ps in CHANGE.values() for p in ps))
    }.values()
)


def seed_dir() -> Path:
    return dataset.build_dir("seed")


def reference_dir() -> Path:
    return dataset.build_dir("reference")


@functools.cache
def reference_values() -> dict[str, list[Any]]:
    """Every probe's expected observation: what the reference build gives."""
    run = execute(reference_dir(), ALL_PROBES)
    missing = [p.name for p in ALL_PROBES if p.name not in run.values]
    if run.build_error or missing:
        raise RuntimeError(f"the reference build does not run: {run.build_error or missing}")
    return run.values


def show(value: list[Any] | None) -> str:
    """An observation as a short readable string."""
    if value is None:
        return "(not observed: the build stopped or timed out)"
    text = repr(value[1]) if value[:1] in (["str"], ["float"], ["int"]) else str(value)
    return text if len(text) <= 300 else text[:297] + "..."


def _judge(probes: Sequence[Probe], run: Execution) -> tuple[AssertionResult, ...]:
    expected = reference_values()
    out = []
    for probe in probes:
        actual = run.values.get(probe.name)
        passed = (
            run.build_error is None
            and actual is not None
            and agrees(probe, expected[probe.name], actual)
        )
        out.append(
            AssertionResult(
                name=probe.name,
                checks=probe.checks,
                passed=passed,
                expected=show(expected[probe.name]),
                actual=show(actual),
            )
        )
    return tuple(out)


def fraction(results: Sequence[AssertionResult]) -> float:
    return sum(r.passed for r in results) / len(results) if results else 0.0


def grade_build(build: Path, task: str, limits: Limits | None = None) -> GradeReport:
    """Grade any directory holding a shopkit build for `task` (T1-T5)."""
    if task not in CHANGE:
        raise KeyError(f"unknown task {task!r}; tasks: {', '.join(TASKS)}")
    reference_values()
    probes = (*REGRESS, *REGRESS_EXTRA, *CHANGE[task])
    return judge(execute(build, probes, limits or Limits()), task)


def grade_tree(files: Mapping[str, str], task: str) -> GradeReport:
    """Write a file tree to a temporary directory and grade it (the Inspect scorer's judge)."""
    with tempfile.TemporaryDirectory(prefix="shopkit-final-") as tmp:
        try:
            materialise(files, Path(tmp))
        except (OSError, ValueError) as err:
            why = stable_error(f"cannot write tree: {err}")
            return GradeReport(task=task, change=0.0, regress=0.0, build_error=why)
        return grade_build(Path(tmp), task)


def judge(run: Execution, task: str) -> GradeReport:
    """Grade an execution that observed at least both regress sets and `task`'s change set."""
    change, regress = _judge(CHANGE[task], run), _judge(REGRESS, run)
    extra = _judge(REGRESS_EXTRA, run)
    return GradeReport(
        task=task,
        change=fraction(change),
        regress=fraction(regress),
        change_assertions=change,
        regress_assertions=regress,
        regress_extra=fraction(extra),
        regress_extra_assertions=extra,
        build_error=stable_error(run.build_error),
        landlock=run.landlock,
        seconds=run.seconds,
    )


_OUTSIDE = re.compile(r"""[^\s"']*/build/""")  # an absolute path up to the build's root


def stable_error(text: str | None) -> str | None:
    """A build's error as the record keeps it: from the last traceback frame inside the
    build, with paths relative to it. The temporary directory and the interpreter's own
    frames differ from run to run and machine to machine; a record must not."""
    if text is None:
        return None
    lines = text.rstrip().splitlines()
    frames = [
        i
        for i, line in enumerate(lines)
        if line.lstrip().startswith('File "') and "/build/" in line
    ]
    return _OUTSIDE.sub("", "\n".join(lines[frames[-1] :] if frames else lines[-1:]))


def sanity() -> list[str]:
    """The negative control's four checks; an empty list means the suite may report."""
    problems: list[str] = []
    reference_values()
    seed, ref = execute(seed_dir(), ALL_PROBES), execute(reference_dir(), ALL_PROBES)
    for name, run in (("seed", seed), ("reference", ref)):
        report = judge(run, "T4")
        for axis, results in (
            ("regress", report.regress_assertions),
            ("regress_extra", report.regress_extra_assertions),
        ):
            if not all(a.passed for a in results):
                problems.append(
                    f"{axis} is not green on the {name}: "
                    f"{[a.name for a in results if not a.passed]}"
                )
    for task in TASKS:
        on_seed, on_ref = judge(seed, task), judge(ref, task)
        if on_seed.change >= 1.0:
            problems.append(f"{task}: the change grader passes on the pristine seed")
        if on_ref.change < 1.0:
            problems.append(
                f"{task}: the change grader fails on the reference ({on_ref.change:.4f})"
            )
    return problems
