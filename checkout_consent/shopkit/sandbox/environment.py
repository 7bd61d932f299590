"""The confined runner as an Inspect sandbox environment: `checkout-consent`.

Registered with Inspect (`@sandboxenv`) when the shopkit task module is imported, which
the package's entry point does; the default sandbox of the shopkit task. No daemon: each
sample gets its cell (`cell.py`: one cgroup bounding the memory of all its commands, and a
size-capped tmpfs holding `build/`, its working directory, and `tmp/`) and every `exec`
runs isolated (`isolation.py`) within it under the supervisor of `sandbox_script.py`,
with the same confinement and `Limits` as a graded build; at the end every process it
left is killed. The environment is an allow-list (`PATH`, `HOME`, `TMPDIR`, `LANG`, and
what the caller passes); past the exec's `timeout`, TimeoutError. Where the machine cannot
isolate or bound a run, the task refuses to start in one line (`task_init`): use
`--sandbox docker`. Files are read and written only inside the sample's tree, never
through a symlink of it. It runs as the current user only."""

from __future__ import annotations

import binascii
import os
import sys
import tempfile
from pathlib import Path
from typing import Any, Literal, overload

import anyio
from inspect_ai.util import (
    ExecResult,
    SandboxEnvironment,
    SandboxEnvironmentConfigType,
    SandboxUserUnsupportedError,
    sandboxenv,
)

from checkout_consent.runtime.compat import prerequisite_error
from checkout_consent.runtime.runner import RunFailed
from checkout_consent.shopkit.sandbox import bounds, isolation
from checkout_consent.shopkit.sandbox.cell import Cell
from checkout_consent.shopkit.sandbox.sandbox import Limits, ended, run

NAME = "checkout-consent"
DEFAULT_TIMEOUT_S = 60
CAPTURE = 8 * 1024 * 1024  # bytes of stdout and of stderr kept, each
MAX_READ = 100 * 1024 * 1024


def _current_user(user: str) -> bool:
    import pwd

    try:
        uid = int(user) if user.isdecimal() else pwd.getpwnam(user).pw_uid
    except KeyError:
        return False
    return uid == os.geteuid()


def _text(record: dict[str, Any] | None) -> str:
    data = (record or {}).get("data")
    raw = binascii.a2b_base64(data) if isinstance(data, str) else b""
    return raw.decode("utf-8", "replace")


@sandboxenv(name=NAME)
class ConfinedSandbox(SandboxEnvironment):
    """One sample's confined directory; `exec` runs confined, files stay inside it."""

    @classmethod
    async def task_init(cls, task_name: str, config: SandboxEnvironmentConfigType | None) -> None:
        """Refuse the task, in one line, where the machine cannot isolate a run."""
        try:
            isolation.require()
        except (isolation.IsolationUnavailable, bounds.BoundsUnavailable) as refused:
            raise prerequisite_error()(str(refused)) from None

    @classmethod
    async def sample_init(
        cls, task_name: str, config: SandboxEnvironmentConfigType | None, metadata: dict[str, str]
    ) -> dict[str, SandboxEnvironment]:
        return {"default": cls()}

    @classmethod
    async def sample_cleanup(
        cls,
        task_name: str,
        config: SandboxEnvironmentConfigType | None,
        environments: dict[str, SandboxEnvironment],
        interrupted: bool,
    ) -> None:
        for environment in environments.values():
            if isinstance(environment, ConfinedSandbox):
                environment.close()

    def __init__(self) -> None:
        super().__init__()
        self._directory = tempfile.TemporaryDirectory(
            prefix="checkout-consent-", ignore_cleanup_errors=True
        )
        self.root = Path(self._directory.name).resolve()
        self.build = self.root / "build"
        try:  # the sample's bounds: its cgroup, and `build/` and `tmp/` on its tmpfs
            self.cell = Cell(self.root)
        except RunFailed:
            self._directory.cleanup()
            raise

    def close(self) -> None:
        self.cell.close()
        self._directory.cleanup()

    def resolve(self, file: str) -> Path:
        """Where the evaluator reaches a path of this sample (`inside`), on its tmpfs
        (`Cell.outside`)."""
        return self.cell.outside(self.inside(file))

    def inside(self, file: str) -> Path:
        """A path of this sample as its commands see it (relative: to `build/`);
        PermissionError for any other, and for a path through a symlink (the sample's
        links are the agent's: never followed from out here)."""
        path = Path(os.path.normpath(self.build / file))
        if path != self.root and self.root not in path.parents:
            raise PermissionError(f"{file!r} is outside the sandbox")
        step = self.root
        for part in path.relative_to(self.root).parts:
            step = step / part
            if os.path.islink(self.cell.outside(step)):
                raise PermissionError(f"{file!r} goes through a symlink of the sandbox")
        return path

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
        if user is not None and not _current_user(user):
            raise SandboxUserUnsupportedError(f"{NAME} runs commands as the current user only")
        if not cmd:
            raise ValueError("exec needs a command")
        where = self.inside(cwd or ".")
        limits = Limits(deadline_s=float(timeout or DEFAULT_TIMEOUT_S))
        path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
        work = {
            "mode": "exec",
            "argv": [str(c) for c in cmd],
            "cwd": str(where),
            "env": {
                "PATH": path,
                "HOME": str(self.build),
                "TMPDIR": str(self.root / "tmp"),
                "LANG": "C.UTF-8",
                **(env or {}),
            },
            "input": input.encode("utf-8") if isinstance(input, str) else (input or b""),
            "capture": CAPTURE,
        }
        kills = self.cell.cgroup.oom_kills()
        found = await anyio.to_thread.run_sync(run, self.root, work, limits, 3 * CAPTURE, self.cell)
        last = ended(found)
        if last["timed_out"]:
            raise TimeoutError(f"the command did not finish within {limits.deadline_s:g} s")
        return self._result(found, last["status"], self.cell.cgroup.oom_kills() > kills)

    def _result(
        self, found: list[dict[str, Any]], status: int | None, oom: bool
    ) -> ExecResult[str]:
        """A finished command's ExecResult; `oom`: the kernel killed a process of it at the
        sample's memory bound (said on its stderr)."""
        status = status if status is not None else 1
        code = status if status >= 0 else 128 - status  # killed by a signal: as a shell says
        out = {r.get("kind"): r for r in found if r.get("kind") in ("stdout", "stderr")}
        stderr = _text(out.get("stderr"))
        if oom:
            stderr += f"\n[stopped at the sandbox's memory bound, {bounds.MEMORY_MIB} MiB]\n"
        return ExecResult(code == 0, code, _text(out.get("stdout")), stderr)

    async def write_file(self, file: str, contents: str | bytes) -> None:
        path = self.resolve(file)
        path.parent.mkdir(parents=True, exist_ok=True)
        data = contents.encode("utf-8") if isinstance(contents, str) else contents
        path.write_bytes(data)

    @overload
    async def read_file(self, file: str, text: Literal[True] = True) -> str: ...

    @overload
    async def read_file(self, file: str, text: Literal[False]) -> bytes: ...

    async def read_file(self, file: str, text: bool = True) -> str | bytes:
        path = self.resolve(file)
        if path.stat().st_size > MAX_READ:
            from inspect_ai.util import OutputLimitExceededError

            raise OutputLimitExceededError(limit_str="100 MiB", truncated_output=None)
        data = path.read_bytes()
        return data.decode("utf-8") if text else data
