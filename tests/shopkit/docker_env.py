"""A Docker sandbox for the `-m docker` tests: one container per sample from the image that
checkout_consent/shopkit/compose.yaml names, reached with plain `docker run` and `docker
exec`. Inspect's own `docker` provider needs Docker Engine 24.0.6+ and Compose v2.21+;
where only an older engine runs (Debian 12's docker.io is 20.10), this one still runs the
same tasks in the same image through Inspect's sandbox interface."""

from __future__ import annotations

import posixpath
import shutil
import subprocess
from pathlib import Path
from typing import Any, Literal, overload

import yaml
from inspect_ai.util import (
    ExecResult,
    SandboxEnvironment,
    SandboxEnvironmentConfigType,
    sandboxenv,
)
from inspect_ai.util import (
    subprocess as async_subprocess,
)

COMPOSE = Path(__file__).parents[2] / "checkout_consent" / "shopkit" / "compose.yaml"
SERVICE: dict[str, Any] = yaml.safe_load(COMPOSE.read_text())["services"]["default"]
IMAGE, WORKDIR = str(SERVICE["image"]), str(SERVICE["working_dir"])


def docker_unavailable() -> str | None:
    """Why the Docker tests cannot run here, or None."""
    if shutil.which("docker") is None:
        return "no docker client"
    try:
        found = subprocess.run(
            ["docker", "image", "inspect", IMAGE], capture_output=True, text=True, timeout=20
        )
    except (OSError, subprocess.TimeoutExpired) as err:
        return f"docker did not answer: {err}"
    if found.returncode != 0:
        line = (found.stderr.strip().splitlines() or ["?"])[-1]
        return f"no Docker daemon with image {IMAGE} ({line[:200]})"
    return None


def start() -> str:
    """A fresh container as compose.yaml describes it; its id."""
    args = ["docker", "run", "-d", "--rm", "--init", "--network", "none"]
    args += ["--memory", str(SERVICE["mem_limit"]), "--cpus", str(SERVICE["cpus"])]
    args += ["--pids-limit", str(SERVICE["pids_limit"]), "-w", WORKDIR, IMAGE]
    args += [str(c) for c in SERVICE["command"]]
    return subprocess.run(args, capture_output=True, text=True, check=True).stdout.strip()


def stop(container: str) -> None:
    subprocess.run(["docker", "rm", "-f", container], capture_output=True, check=False)


@sandboxenv(name="shopkit-docker-test")
class DockerExec(SandboxEnvironment):
    """One container per sample; `exec` is `docker exec -i` in its working directory."""

    @classmethod
    async def sample_init(
        cls, task_name: str, config: SandboxEnvironmentConfigType | None, metadata: dict[str, str]
    ) -> dict[str, SandboxEnvironment]:
        return {"default": cls(start())}

    @classmethod
    async def sample_cleanup(
        cls,
        task_name: str,
        config: SandboxEnvironmentConfigType | None,
        environments: dict[str, SandboxEnvironment],
        interrupted: bool,
    ) -> None:
        for environment in environments.values():
            if isinstance(environment, DockerExec):
                stop(environment.container)

    def __init__(self, container: str) -> None:
        super().__init__()
        self.container = container

    async def exec(
        self,
        cmd: list[str],
        input: str | bytes | None = None,
        cwd: str | None = None,
        env: dict[str, str] | None = None,
        user: str | None = None,
        timeout: int | None = None,
        timeout_retry: bool = True,
        concurrency: bool = True,
    ) -> ExecResult[str]:
        workdir = posixpath.normpath(posixpath.join(WORKDIR, cwd or "."))
        flags = [f"--env={k}={v}" for k, v in (env or {}).items()]
        args = ["docker", "exec", "-i", "-w", workdir, *flags, self.container, *cmd]
        return await async_subprocess(args, input=input, timeout=timeout)

    def _path(self, file: str) -> str:
        return posixpath.normpath(posixpath.join(WORKDIR, file))

    async def write_file(self, file: str, contents: str | bytes) -> None:
        path = self._path(file)
        script = 'mkdir -p "$(dirname "$1")" && cat > "$1"'
        done = await self.exec(["sh", "-c", script, "sh", path], input=contents)
        if not done.success:
            raise PermissionError(done.stderr)

    @overload
    async def read_file(self, file: str, text: Literal[True] = True) -> str: ...

    @overload
    async def read_file(self, file: str, text: Literal[False]) -> bytes: ...

    async def read_file(self, file: str, text: bool = True) -> str | bytes:
        done = await self.exec(["cat", self._path(file)])
        if not done.success:
            raise FileNotFoundError(done.stderr)
        return done.stdout if text else done.stdout.encode("utf-8")
