"""The sandbox plumbing: launch sandbox_script.py on a build directory and collect its records.

The build is copied (regular files only, size-capped) into a fresh temporary directory,
so nothing it does reaches the original. Results come back on a dedicated pipe as JSON
lines tagged with a per-run nonce; stdout and stderr are discarded, so printed text can
never be mistaken for a result. The harness itself never raises on a bad build.
"""

from __future__ import annotations

import json
import marshal
import os
import secrets
import selectors
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from checkout_consent.runtime import untrusted
from checkout_consent.shopkit.sandbox import bounds, isolation

if TYPE_CHECKING:
    from checkout_consent.shopkit.sandbox.cell import Cell

SCRIPT = (Path(__file__).parent / "sandbox_script.py").read_text(encoding="utf-8")
MAX_FILES, MAX_BYTES, MAX_RESULT_BYTES = 2000, 20 * 1024 * 1024, 8 * 1024 * 1024
MAX_OUTPUT = 20_000  # characters of a command's output kept


@dataclass(frozen=True)
class Limits:
    """How long and how much a build may take."""

    deadline_s: float = 10.0  # the whole run: import plus every probe
    probe_s: float = 2.0  # one probe
    memory_mib: int = 1024
    file_mib: int = 16
    cpu_s: int = 20


def read_build(source: Path) -> dict[str, bytes]:
    """A build's regular files (no symlinks, devices or fifos, no `__pycache__`) as bytes,
    by path relative to it, read by `runtime.untrusted`; ValueError past the size caps."""
    found = untrusted.walk(source, max_entries=MAX_FILES, skip=["__pycache__"])
    files = [e for e in found if not e.folder and e.why is None]
    if sum(e.size for e in files) > MAX_BYTES:
        raise ValueError(f"the build is too large (over {MAX_FILES} files or 20 MiB)")
    return {e.rel: untrusted.read_bytes(e.path, MAX_BYTES) for e in files}


def copy_build(source: Path, target: Path) -> None:
    """Copy a build's regular files (`read_build`) under `target`."""
    for name, data in read_build(source).items():
        dest = target / name
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(data)


def _read_results(fd: int, hard_end: float, cap: int) -> bytes:
    data = bytearray()
    with selectors.DefaultSelector() as sel:
        sel.register(fd, selectors.EVENT_READ)
        while len(data) < cap:
            left = hard_end - time.monotonic()
            if left <= 0 or not sel.select(timeout=left):
                break
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            data += chunk
    return bytes(data)


def launch(
    build: Path,
    work: dict[str, Any],
    limits: Limits,
    nonce: str,
    cap: int = MAX_RESULT_BYTES,
    probe: bool = False,
    cell: Cell | None = None,
) -> bytes:
    """The records the supervisor wrote, run isolated (`isolation.py`) within its bounds
    (`bounds.py`): a sample's `cell` (its cgroup and its tree), or a cgroup of this run's
    own and a tmpfs copy of the writable directory (the build, or for a command the
    directory holding it and its output file), removed after."""
    own = bounds.make() if cell is None else None
    cgroup = cell.cgroup if cell is not None else own
    assert cgroup is not None
    holder = None if cell is None else cell.pid
    try:
        return _launch(
            build, work, limits, nonce, cap=cap, probe=probe, procs=cgroup.procs, holder=holder
        )
    finally:
        if own is not None:
            own.remove()


def _launch(
    build: Path,
    work: dict[str, Any],
    limits: Limits,
    nonce: str,
    *,
    cap: int,
    probe: bool,
    procs: list[str],
    holder: int | None,
) -> bytes:
    """`launch`, its bounds given: the cgroup.procs files its first process joins, and a
    cell's holder, whose namespaces it enters (None: a one-off run, its tree copied onto
    a tmpfs of its own)."""
    read_fd, write_fd = os.pipe()
    job = {**work, "build": str(build), "nonce": nonce, "result_fd": write_fd, **asdict(limits)}
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(build),
        "TMPDIR": str(build),
        "LANG": "C.UTF-8",
    }
    writable = Path(work["output"]).parent if "output" in work else build
    disk = f"{bounds.DISK_MIB}m" if holder is None else None
    plan = isolation.view(writable, write_fd, nonce, probe, cgroups=procs, disk=disk)
    try:
        proc = subprocess.Popen(
            isolation.command([sys.executable, "-I", "-S", "-B", "-c", SCRIPT], plan, holder),
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            pass_fds=(write_fd,),
            cwd=build if holder is None else "/",
            env=env,
            start_new_session=True,
        )
    finally:
        os.close(write_fd)
    try:
        assert proc.stdin is not None
        proc.stdin.write(marshal.dumps(job))
        proc.stdin.close()
        data = _read_results(read_fd, time.monotonic() + limits.deadline_s + 3.0, cap)
    finally:
        os.close(read_fd)
        _stop(proc)
    return data


def _stop(proc: subprocess.Popen[bytes]) -> None:
    try:
        proc.wait(timeout=3.0)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9)
        proc.wait()


def records(data: bytes, nonce: str) -> list[dict[str, Any]]:
    """The well-formed JSON records that carry this run's nonce; everything else is noise."""
    out = []
    for line in data.decode("utf-8", "replace").splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict) and record.get("nonce") == nonce:
            out.append(record)
    return out


def is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def ended(found_in: list[dict[str, Any]]) -> dict[str, Any]:
    """The supervisor's last word: whether the deadline struck, and the exit status."""
    found = [r for r in found_in if r.get("kind") == "ended"]
    last = found[-1] if found else {}
    status = last.get("status")
    return {
        "timed_out": bool(last.get("timed_out", True)),
        "status": status if is_int(status) else None,
    }


def materialise(files: Mapping[str, str], root: Path) -> None:
    """Write a file tree (relative path -> text) under `root`."""
    for name, text in files.items():
        path = root / name
        if root.resolve() not in path.resolve().parents:
            raise ValueError(f"path escapes the build: {name!r}")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def run(
    build: Path,
    work: dict[str, Any],
    limits: Limits,
    cap: int = MAX_RESULT_BYTES,
    cell: Cell | None = None,
) -> list[dict[str, Any]]:
    """Launch the sandbox on `build` with `work`; the records of this run, nothing else.
    `cap`: the most bytes of records read (an exec's captured output needs more); `cell`:
    the sample's bounds, when the run is one of its commands."""
    isolation.require()
    nonce = secrets.token_hex(16)
    found = records(launch(build, work, limits, nonce, cap, cell=cell), nonce)
    refused = [r for r in found if r.get("kind") == "isolation"]
    if refused:
        raise isolation.IsolationUnavailable(
            isolation.WHAT.format(why=str(refused[0].get("error"))[:200])
        )
    return found


def isolated_probe() -> str | None:
    """Why an isolated run cannot start here (one short phrase), or None if it can."""
    nonce = secrets.token_hex(16)
    with tempfile.TemporaryDirectory(prefix="shopkit-probe-") as tmp:
        try:
            data = launch(Path(tmp), {}, Limits(deadline_s=5.0), nonce, probe=True)
        except OSError as err:
            return f"{isolation.UNSHARE}: {err.strerror or err}"
        except bounds.BoundsUnavailable as err:
            return f"no cgroup bounds a run's memory: {err.why}"
    found = [r for r in records(data, nonce) if r.get("kind") == "isolation"]
    if not found:
        return "the namespaces could not be created"
    if found[0].get("ok") is not True:
        return str(found[0].get("error"))[:200]
    return None
