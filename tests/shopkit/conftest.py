"""Builders for shopkit test builds: the seed tree, optionally altered, written to disk."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TypeVar

import anyio
import pytest
from inspect_ai.util import SandboxEnvironment

from checkout_consent.shopkit.dataset import build_tree
from checkout_consent.shopkit.grading import grade_build, seed_dir
from checkout_consent.shopkit.record import GradeReport
from checkout_consent.shopkit.sandbox.environment import ConfinedSandbox
from checkout_consent.shopkit.sandbox.remote import launching, sandbox_launcher
from checkout_consent.shopkit.sandbox.sandbox import Limits, materialise

MakeBuild = Callable[..., Path]
T = TypeVar("T")


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


def in_sandbox(env: SandboxEnvironment, work: Callable[[], T]) -> T:
    """`work()` with builds running in `env`, from a worker thread as the task runs it."""

    def call() -> T:
        with launching(sandbox_launcher(env)):
            return work()

    async def main() -> T:
        return await anyio.to_thread.run_sync(call)

    return anyio.run(main)


def _timed_grade(build: Path, task: str, limits: Limits | None) -> tuple[GradeReport, float]:
    started = time.monotonic()
    report = grade_build(build, task, limits)
    return report, time.monotonic() - started


def grade_in_sandbox(
    build: Path, task: str, limits: Limits | None = None
) -> tuple[GradeReport, float]:
    """`grade_build` through a fresh checkout-consent sandbox environment, and its time."""
    env = ConfinedSandbox()
    try:
        return in_sandbox(env, lambda: _timed_grade(build, task, limits))
    finally:
        env.close()


def grade_in_docker(
    build: Path, task: str, limits: Limits | None = None
) -> tuple[GradeReport, float]:
    """`grade_build` in a fresh container of the compose file's image (`-m docker`), and
    its time (the container's start and stop not counted)."""
    from tests.shopkit import docker_env

    # The docker layer (`pytest -m docker`, never in the default run or CI's slow layer) needs
    # a running daemon and the image built without a registry (shopkit README, "Sandboxes");
    # where either is missing it skips, saying which, rather than failing a machine that
    # cannot have them.
    why = docker_env.docker_unavailable()
    if why is not None:
        pytest.skip(why)
    container = docker_env.start()
    try:
        return in_sandbox(
            docker_env.DockerExec(container), lambda: _timed_grade(build, task, limits)
        )
    finally:
        docker_env.stop(container)
