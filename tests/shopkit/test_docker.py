"""shopkit in Docker: the compose file's structure (always), and under `-m docker` the
same runs, grades and Inspect tasks in a container of its image (skipped with the reason
where no daemon or image is available)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from inspect_ai import eval as inspect_eval

from checkout_consent.shopkit.sandbox.environment import ConfinedSandbox
from checkout_consent.shopkit.task import shopkit, shopkit_inspect_tools
from tests.shopkit import docker_env
from tests.shopkit.conftest import in_sandbox
from tests.shopkit.test_sandbox_env import _runs_and_grades

HERE = docker_env.COMPOSE.parent


def test_compose__one_isolated_service_in_the_tasks_working_directory() -> None:
    compose = yaml.safe_load(docker_env.COMPOSE.read_text())
    (name,) = compose["services"]
    service = compose["services"][name]
    assert name == "default" and service["network_mode"] == "none"
    assert service["working_dir"] == "/shopkit/build" and service["init"] is True
    assert service["build"] == {"context": ".", "dockerfile": "Dockerfile"}
    assert (HERE / service["build"]["dockerfile"]).is_file()
    assert {"mem_limit", "cpus", "pids_limit"} <= set(service)
    assert service["command"] == ["tail", "-f", "/dev/null"]
    dockerfile = (HERE / "Dockerfile").read_text().splitlines()
    assert f"WORKDIR {service['working_dir']}" in dockerfile
    assert any(line.startswith("FROM python:3.11") for line in dockerfile)


def test_compose__the_helm_values_run_the_same_image_without_network() -> None:
    compose = yaml.safe_load(docker_env.COMPOSE.read_text())["services"]["default"]
    helm = yaml.safe_load((HERE / "helm-values.yaml").read_text())
    service = helm["services"]["default"]
    assert service["image"] == compose["image"] and helm["allowDomains"] == []
    assert service["workingDir"] == compose["working_dir"]
    assert service["command"] == compose["command"]
    assert service["resources"]["limits"]["memory"] == "2Gi"


@pytest.fixture(scope="module")
def container() -> Iterator[str]:
    # The docker layer (`pytest -m docker`, never in the default run or CI's slow layer) needs
    # a running daemon and the image built without a registry (shopkit README, "Sandboxes");
    # where either is missing it skips, saying which, rather than failing a machine that
    # cannot have them.
    why = docker_env.docker_unavailable()
    if why is not None:
        pytest.skip(why)
    made = docker_env.start()
    yield made
    docker_env.stop(made)


@pytest.mark.docker
def test_docker__runs_and_grades_give_what_they_give_here(container: str) -> None:
    env = ConfinedSandbox()
    try:
        here = in_sandbox(env, _runs_and_grades)
    finally:
        env.close()
    there = in_sandbox(docker_env.DockerExec(container), _runs_and_grades)
    assert there == here and there[1]["landlock"]


def _only(logs: list[Any]) -> Any:
    (log,) = logs
    assert log.status == "success" and log.eval.sandbox.type == "shopkit-docker-test"
    return log.samples[0].scores["shopkit_scorer"]


@pytest.mark.docker
@pytest.mark.parametrize(
    ("solver", "model"),
    [(None, "control/shopkit-reference"), ("inspect", "control/shopkit-inspect-reference")],
)
def test_docker__the_task_runs_in_a_container_through_inspects_sandbox(
    container: str, tmp_path: Path, solver: str | None, model: str
) -> None:
    """The same task, the sandbox a container per sample: run tools, Inspect's bash and
    grading all execute in it, and the grade is the one the default sandbox gives."""
    graded = {}
    for sandbox in ("shopkit-docker-test", None):
        score = inspect_eval(
            shopkit(task="T4"),
            solver=shopkit_inspect_tools() if solver else None,
            model=model,
            sandbox=sandbox,
            display="none",
            log_dir=str(tmp_path / str(sandbox)),
            score_display=False,
        )
        graded[sandbox] = (
            score[0].samples[0].scores["shopkit_scorer"] if sandbox is None else _only(score)
        )
    assert graded["shopkit-docker-test"].value["change"] == 1.0
    assert graded["shopkit-docker-test"].metadata["record"] == graded[None].metadata["record"]
