"""What a newcomer meets first (issue 34): the documented test selections select what
they say, the family docs state what the code does, and the tree a documented command
litters is ignored."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from _pytest.mark.expression import Expression

from checkout_consent.runtime.provenance import REPO_ROOT

DOCS = [
    REPO_ROOT / "README.md",
    REPO_ROOT / "CONTRIBUTING.md",
    *sorted((REPO_ROOT / "checkout_consent").glob("*/README.md")),
    *sorted((REPO_ROOT / "docs").glob("*.md")),
]


def documented_marker_expressions() -> list[str]:
    """Every `pytest ... -m EXPR` the docs show."""
    found = []
    for doc in DOCS:
        for line in doc.read_text(encoding="utf-8").splitlines():
            for quoted, bare in re.findall(r"pytest\b[^#\n]*?-m (?:\"([^\"]+)\"|([a-z]+))", line):
                found.append(quoted or bare)
    return found


def _selects(expr: str, *markers: str) -> bool:
    return Expression.compile(expr).evaluate(lambda name: name in markers)


def test_docs__a_negative_marker_selection_leaves_out_the_slow_and_docker_layers() -> None:
    # a command-line -m replaces addopts' `-m 'not slow and not docker'`: a selection that
    # says "not X" must say the rest again, or it runs the slow and docker layers
    exprs = documented_marker_expressions()
    negative = [e for e in exprs if e.startswith("not ")]
    assert negative, exprs
    for expr in negative:
        assert not _selects(expr, "slow"), expr
        assert not _selects(expr, "docker"), expr
        assert _selects(expr), expr  # an unmarked unit test is still selected


def test_docs__the_positive_selections_name_their_layer() -> None:
    for expr in documented_marker_expressions():
        if not expr.startswith("not "):
            assert _selects(expr, expr.split()[0]) and not _selects(expr), expr


def test_gitignore__documented_outputs_are_ignored() -> None:
    # README's `--log-dir runs/...`, `pip wheel .`'s build/ and the grocery held-out tasks
    for path in ("runs/sonnet/x.json", "build/lib/x.py", "tasks/grocery/heldout/h.yaml"):
        got = subprocess.run(
            ["git", "check-ignore", "-q", path], cwd=REPO_ROOT, capture_output=True, check=False
        )
        assert got.returncode == 0, path


def test_build__output_goes_where_inspect_never_scans_for_tasks() -> None:
    import runpy

    import setuptools
    from setuptools.dist import Distribution

    from checkout_consent.runtime.compat import task_path_excluded

    given: dict[str, Any] = {}
    real = setuptools.setup
    setuptools.setup = lambda **kw: given.update(kw)  # type: ignore[assignment]
    try:
        runpy.run_path(str(REPO_ROOT / "setup.py"))
    finally:
        setuptools.setup = real
    build = Distribution(given).get_command_obj("build")
    build.ensure_finalized()
    top = Path(build.build_lib).parts[0]
    assert task_path_excluded(top), build.build_lib  # `inspect list tasks` skips it
    got = subprocess.run(["git", "check-ignore", "-q", f"{top}/lib/x.py"], cwd=REPO_ROOT)
    assert got.returncode == 0


def test_family_readmes__versions_section_with_a_changelog_naming_the_current_version() -> None:
    from checkout_consent.families import WORLDS

    for world in WORLDS:
        text = (REPO_ROOT / "checkout_consent" / world.name / "README.md").read_text()
        section = text.split("\n## Versions\n", 1)[1].split("\n## ", 1)[0]
        log = text.split("\n## Changelog\n", 1)[1].split("\n## ", 1)[0]
        assert f"- `{world.world_version}`:" in log, world.name
        assert re.findall(r"now (\d+)", section) in ([], [str(world.version)]), world.name


def test_leaderboard_doc__card_example_names_a_current_world_version() -> None:
    from checkout_consent.families import WORLDS

    text = " ".join((REPO_ROOT / "docs" / "leaderboard.md").read_text().split())  # unwrapped
    examples = re.findall(r"`world_version` \(e\.g\. ([^)]*)\)", text)
    named = {n for e in examples for n in re.findall(r"`([a-z_0-9-]+)`", e)}  # every one given
    assert named and named <= {w.world_version for w in WORLDS}, named


def test_readme__the_sanity_figure_is_the_benchmarks_measured_one() -> None:
    readme = " ".join((REPO_ROOT / "README.md").read_text().split())
    bench = (REPO_ROOT / "benchmarks" / "README.md").read_text()
    assert "a second or two" not in readme
    assert "`benchmarks/sanity.py`" in readme
    cpu = re.search(r"sanity storefront (\d+(?:\.\d)?) s of CPU", " ".join(bench.split()))
    assert cpu is not None
    assert f"storefront {round(float(cpu.group(1)))} s" in readme


def test_contributing__the_test_budget_says_what_it_becomes_under_load() -> None:
    text = " ".join((REPO_ROOT / "CONTRIBUTING.md").read_text().split())
    assert "The 3-minute budget is for a quiet machine. Under load" in text
    assert re.search(r"at load \d+-\d+ took \d+ min \d+ s", text)


def test_contributing__states_the_default_run_and_no_test_count() -> None:
    """A test count goes stale with the next test (it said 1,680 where 1,832 ran): the page
    states the command and its time, never how many tests there are."""
    text = " ".join((REPO_ROOT / "CONTRIBUTING.md").read_text().split())
    assert "The default run, `python -m pytest -q`" in text and "3 minutes wall" in text
    assert not re.search(r"\b\d{1,2},\d{3} tests\b", text), re.findall(r"\d[\d,]* tests", text)


@pytest.mark.slow  # two CLI processes; the registry is imported in process by every e2e test
def test_docs__inspect_list_tasks_lists_every_worlds_task() -> None:
    """In a clone, `inspect list tasks` lists every world's task, each in its own folder
    (storefront_v1 too: a world of its own, its task decorated like the rest), as
    `checkout-consent list` names each; no README says a world's task is not listed."""
    from checkout_consent.families import WORLDS

    got = subprocess.run(
        ["inspect", "list", "tasks", "checkout_consent"],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert got.returncode == 0, got.stderr[-2000:]
    listed = sorted(got.stdout.split())
    assert listed == sorted(f"checkout_consent/{w.name}/task.py@{w.name}" for w in WORLDS)
    shown = subprocess.run(
        ["checkout-consent", "list"], capture_output=True, text=True, timeout=120
    ).stdout
    for w in WORLDS:
        assert f"inspect eval checkout_consent/{w.name})" in shown, w.name
    for readme in REPO_ROOT.glob("checkout_consent/*/README.md"):
        assert "`inspect list tasks` does not list" not in " ".join(readme.read_text().split())
