"""Running the confined program inside an Inspect sandbox environment (`sandbox()`):
the checkout-consent one (`environment.py`), Docker, Kubernetes, anything with `python3`.

One run is one `exec` of `python3 -I -S -B -c <sandbox_script>` with the job on stdin
(base64 of marshal): the job carries the build's files, which the supervisor writes to a
fresh `run-<nonce>/build` directory beside the sandbox's working directory (`cwd=".."`),
runs exactly as it does on this machine (the same limits, the same confinement where the
kernel allows it), reports on its stdout (the build's own output goes nowhere) and removes.
So the build the agent leaves in the sandbox is never touched by a run, and every run
starts from the files it is given, as a local run does.

`execution.py` asks `LAUNCHER` for the way to run: unset (the offline driver, the CLI
verbs, `inspect score` on a finished log) runs here; the Inspect tools and the scorer set
it, in their worker thread, to the sample's sandbox (`launching`)."""

from __future__ import annotations

import binascii
import contextlib
import contextvars
import dataclasses
import marshal
import os
import secrets
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

import anyio.from_thread

from checkout_consent.shopkit.sandbox.sandbox import SCRIPT, Limits, records

if TYPE_CHECKING:  # Inspect is imported only where a sample runs, never by the roster
    from inspect_ai.util import SandboxEnvironment

Files = Mapping[str, str] | Mapping[str, bytes]
Records = list[dict[str, Any]]


class Launcher(NamedTuple):
    """Where runs go (a sandbox type's name: kept results are kept per place) and how:
    (files, work, limits) -> (the run's records, its build directory in the sandbox)."""

    where: str
    launch: Callable[[Files, dict[str, Any], Limits], tuple[Records, str]]


LAUNCHER: contextvars.ContextVar[Launcher | None] = contextvars.ContextVar(
    "shopkit_launcher", default=None
)
T = TypeVar("T")
COMMAND = ["python3", "-I", "-S", "-B", "-c", SCRIPT]
SLACK_S = 10  # the exec's own timeout beyond the run's deadline: the supervisor ends first


def check_tree(files: Mapping[str, str]) -> None:
    """Refuse a tree as writing it here would (`sandbox.materialise`), with its words."""
    root = Path("/build")
    for name, text in files.items():
        if root not in Path(os.path.normpath(root / name)).parents:
            raise ValueError(f"path escapes the build: {name!r}")
        text.encode("utf-8")


def job_input(files: Files, work: dict[str, Any], limits: Limits, nonce: str) -> str:
    """The job as the supervisor reads it on stdin: base64 of marshal, plain ASCII."""
    job = {
        **work,
        **dataclasses.asdict(limits),
        "files": dict(files),
        "nonce": nonce,
        "stdio": True,
    }
    return binascii.b2a_base64(marshal.dumps(job), newline=False).decode("ascii")


async def run_job(
    env: SandboxEnvironment, files: Files, work: dict[str, Any], limits: Limits
) -> tuple[Records, str]:
    """One confined run in `env`: its records and where its build was written. A run the
    sandbox's own timeout cut short has no records (it reads as timed out)."""
    nonce = secrets.token_hex(16)
    try:
        result = await env.exec(
            COMMAND,
            input=job_input(files, work, limits, nonce),
            cwd="..",
            timeout=int(limits.deadline_s) + SLACK_S,
            timeout_retry=False,
        )
    except TimeoutError:
        return [], ""
    found = records(result.stdout.encode("utf-8", "replace"), nonce)
    built = [r.get("build") for r in found if r.get("kind") == "output"]
    return found, str(built[-1]) if built and isinstance(built[-1], str) else ""


def sandbox_launcher(env: SandboxEnvironment) -> Launcher:
    """Runs in `env`, called from a worker thread of the event loop that owns `env`."""

    def launch(files: Files, work: dict[str, Any], limits: Limits) -> tuple[Records, str]:
        return anyio.from_thread.run(run_job, env, files, work, limits)

    return Launcher(type(env).__name__, launch)


@contextlib.contextmanager
def launching(launcher: Launcher | None) -> Iterator[None]:
    """Within the block, builds run through `launcher` (None: on this machine)."""
    token = LAUNCHER.set(launcher)
    try:
        yield
    finally:
        LAUNCHER.reset(token)


def current_sandbox() -> SandboxEnvironment | None:
    """The running sample's default sandbox, or None (a finished log being re-scored)."""
    from inspect_ai.util import sandbox

    try:
        return sandbox()
    except (ProcessLookupError, LookupError, ValueError):
        return None


def in_sandbox(work: Callable[..., T], *args: Any) -> Callable[[], T]:
    """`work(*args)` with builds running in the current sample's sandbox (if it has one),
    for `anyio.to_thread.run_sync`: resolved here, on the event loop."""
    env = current_sandbox()
    launcher = sandbox_launcher(env) if env is not None else None

    def call() -> T:
        with launching(launcher):
            return work(*args)

    return call
