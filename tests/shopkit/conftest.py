"""Builders for shopkit test builds: the seed tree, optionally altered, written to disk."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

import pytest

from checkout_consent.shopkit.dataset import build_tree
from checkout_consent.shopkit.grading import grade_build, seed_dir
from checkout_consent.shopkit.record import GradeReport
from checkout_consent.shopkit.sandbox.sandbox import materialise

MakeBuild = Callable[..., Path]


def write_build(root: Path, prelude: str = "", files: Mapping[str, str] | None = None) -> Path:
    """The seed tree under `root`, with `prelude` run first when shopkit is imported."""
    tree = dict(build_tree("seed"))
    tree["shopkit/__init__.py"] = prelude + "\n" + tree["shopkit/__init__.py"]
    tree.update(files or {})
    root.mkdir(parents=True, exist_ok=True)
    materialise(tree, root)
    return root


@pytest.fixture
def make_build(tmp_path: Path) -> MakeBuild:
    count = iter(range(1000))

    def make(prelude: str = "", files: Mapping[str, str] | None = None) -> Path:
        return write_build(tmp_path / f"build{next(count)}", prelude, files)

    return make


def verdicts(report: GradeReport) -> list[tuple[str, bool]]:
    return [(a.name, a.passed) for a in (*report.change_assertions, *report.regress_assertions)]


@pytest.fixture(scope="session")
def seed_grades() -> dict[str, GradeReport]:
    """The pristine seed graded on every task, by executing it."""
    return {t: grade_build(seed_dir(), t) for t in ("T1", "T2", "T3", "T4", "T5")}
