"""The seed and reference builds, and the two-axis grading of builds made from them."""

from __future__ import annotations

import difflib
import re
import tempfile
from pathlib import Path

import pytest

from checkout_consent.shopkit.assertions import CHANGE, REGRESS, REGRESS_EXTRA
from checkout_consent.shopkit.controls import vandal_table
from checkout_consent.shopkit.dataset import build_tree
from checkout_consent.shopkit.grading import grade_build, reference_dir, sanity, seed_dir
from checkout_consent.shopkit.sandbox.sandbox import materialise
from checkout_consent.shopkit.vandal import MODES, vandalise

SITES = {
    "T1": ("shopkit/money.py", "fmt"),
    "T2": ("shopkit/reports.py", "is_overdue"),
    "T3": ("shopkit/orders.py", "discount_amount"),
}


def _enclosing_def(lines: list[str], index: int) -> str:
    for line in reversed(lines[: index + 1]):
        if match := re.match(r"def (\w+)\(", line):
            return match.group(1)
    return "<module>"


def changed_sites() -> set[tuple[str, str]]:
    """(file, function) of every line that differs between seed and reference."""
    seed, ref = dict(build_tree("seed")), dict(build_tree("reference"))
    assert set(seed) == set(ref)
    sites = set()
    for path in seed:
        a, b = seed[path].splitlines(), ref[path].splitlines()
        for tag, i1, i2, j1, _ in difflib.SequenceMatcher(a=a, b=b).get_opcodes():
            if tag != "equal":
                sites.add((path, _enclosing_def(a, max(i1, min(i2, len(a)) - 1))))
                sites.add((path, _enclosing_def(b, j1)))
    return sites


def test_reference__differs_from_the_seed_at_exactly_the_three_sites() -> None:
    assert changed_sites() == set(SITES.values())


def test_seed__marks_each_planted_bug_and_the_reference_none() -> None:
    seed, ref = dict(build_tree("seed")), dict(build_tree("reference"))
    for task, (path, _) in SITES.items():
        assert f"PLANTED BUG ({task})" in seed[path]
    assert sum(t.count("PLANTED BUG") for t in seed.values()) == 3
    assert not any("PLANTED BUG" in t for t in ref.values())


def test_sanity__the_four_checks_hold() -> None:
    assert sanity() == []


def test_regress__is_the_seeds_13_assertions_disjoint_from_change_and_extra() -> None:
    change = {p.name for ps in CHANGE.values() for p in ps}
    regress, extra = {p.name for p in REGRESS}, {p.name for p in REGRESS_EXTRA}
    assert len(REGRESS) == len(regress) == 13 and extra
    assert not change & regress and not change & extra and not regress & extra


def test_vandal_table__every_mode_reproduces_the_seeds_regress_and_broken_count() -> None:
    for row in vandal_table.rows():
        seed_regress, seed_broken = vandal_table.SEED_VANDALS[row.label]
        assert (f"{row.regress:.4f}", row.broken) == (seed_regress, seed_broken), row.label


def test_seed_table__every_published_figure_is_ours_where_no_difference_is_stated() -> None:
    ours = vandal_table.ours()
    for name, seed in vandal_table.SEED_FIGURES.items():
        assert name in vandal_table.WHY or ours[name] == seed, name


def _single_fix(task: str, root: Path) -> Path:
    path, _ = SITES[task]
    tree = dict(build_tree("seed")) | {path: dict(build_tree("reference"))[path]}
    materialise(tree, root)
    return root


@pytest.mark.parametrize("fixed", ["T1", "T2", "T3"])
def test_grading__a_single_fix_completes_exactly_its_own_task(fixed: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        build = _single_fix(fixed, Path(tmp))
        for task in ("T1", "T2", "T3"):
            report = grade_build(build, task)
            assert report.regress == 1.0
            assert (report.change == 1.0) == (task == fixed), task


def test_grading__the_reference_completes_every_task() -> None:
    for task in CHANGE:
        report = grade_build(reference_dir(), task)
        assert (report.change, report.regress, report.build_error) == (1.0, 1.0, None)


def test_grading__the_seed_is_partly_credited_but_never_complete() -> None:
    for task in CHANGE:
        report = grade_build(seed_dir(), task)
        assert 0.0 <= report.change < 1.0 and report.regress == 1.0


def test_grading__a_missing_directory_is_a_build_error_not_a_crash(tmp_path: Path) -> None:
    report = grade_build(tmp_path / "nowhere", "T1")
    assert report.build_error and (report.change, report.regress) == (0.0, 0.0)


@pytest.mark.parametrize("mode", list(MODES))
def test_vandal__every_mode_breaks_regress(mode: str, tmp_path: Path) -> None:
    materialise(vandalise(dict(build_tree("seed")), mode), tmp_path)
    report = grade_build(tmp_path, "T1")
    assert report.regress < 1.0
    assert (report.build_error is not None) == (mode == "syntax_error")
    if mode == "syntax_error":
        assert (report.change, report.regress) == (0.0, 0.0)


def test_vandal_table__the_readme_tables_match_a_fresh_run() -> None:
    assert vandal_table.main(["--check"]) == 0
