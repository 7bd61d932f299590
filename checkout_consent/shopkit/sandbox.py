"""Run probes against a build in a confined subprocess and collect what it observed.

The build is copied (regular files only, size-capped) into a fresh temporary directory,
so nothing it does reaches the original. Results come back on a dedicated pipe as JSON
lines tagged with a per-run nonce; stdout and stderr are discarded, so printed text can
never be mistaken for a result. The harness itself never raises on a bad build.
"""

from __future__ import annotations

import json
import os
import secrets
import selectors
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from checkout_consent.shopkit.assertions import Probe

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


@dataclass(frozen=True)
class Execution:
    """What one run of a build gave: observations by probe name, or why there are none."""

    values: dict[str, list[Any]] = field(default_factory=dict)
    build_error: str | None = None
    landlock: bool = False
    seconds: float = 0.0


def copy_build(source: Path, target: Path) -> None:
    """Copy regular files only (no symlinks, devices or fifos), within the size caps."""
    count, total = 0, 0
    for root, dirs, files in os.walk(source, followlinks=False):
        dirs[:] = [d for d in dirs if d != "__pycache__" and not os.path.islink(Path(root, d))]
        for name in files:
            path = Path(root, name)
            if path.is_symlink() or not path.is_file():
                continue
            count, total = count + 1, total + path.stat().st_size
            if count > MAX_FILES or total > MAX_BYTES:
                raise ValueError(f"the build is too large (over {MAX_FILES} files or 20 MiB)")
            dest = target / path.relative_to(source)
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, dest)


def _read_results(fd: int, proc: subprocess.Popen[bytes], hard_end: float) -> bytes:
    data = bytearray()
    with selectors.DefaultSelector() as sel:
        sel.register(fd, selectors.EVENT_READ)
        while len(data) < MAX_RESULT_BYTES:
            left = hard_end - time.monotonic()
            if left <= 0 or not sel.select(timeout=left):
                break
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            data += chunk
    return bytes(data)


def _launch(build: Path, work: dict[str, Any], limits: Limits, nonce: str) -> bytes:
    read_fd, write_fd = os.pipe()
    job = {**work, "build": str(build), "nonce": nonce, "result_fd": write_fd,
           "deadline_s": limits.deadline_s, "probe_s": limits.probe_s,
           "memory_mib": limits.memory_mib, "file_mib": limits.file_mib, "cpu_s": limits.cpu_s}
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(build),
           "TMPDIR": str(build), "LANG": "C.UTF-8"}
    try:
        proc = subprocess.Popen(
            [sys.executable, "-I", "-S", "-B", "-c", SCRIPT], stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, pass_fds=(write_fd,),
            cwd=build, env=env, start_new_session=True)
    finally:
        os.close(write_fd)
    try:
        assert proc.stdin is not None
        proc.stdin.write(json.dumps(job).encode())
        proc.stdin.close()
        data = _read_results(read_fd, proc, time.monotonic() + limits.deadline_s + 3.0)
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


def _records(data: bytes, nonce: str) -> list[dict[str, Any]]:
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


Parsed = tuple[dict[str, Any] | None, dict[str, list[Any]], bool]


def _parse(data: bytes, nonce: str) -> Parsed:
    """The import record, the first value per probe, and whether the run finished."""
    imported: dict[str, Any] | None = None
    values: dict[str, list[Any]] = {}
    done = False
    for record in _records(data, nonce):
        kind = record.get("kind")
        if kind == "import" and imported is None:
            imported = record
        elif kind == "probe" and imported is not None and isinstance(record.get("value"), list):
            values.setdefault(str(record.get("name")), record["value"])
        elif kind == "done":
            done = True
    return imported, values, done


def execute(build: Path, probes: Sequence[Probe], limits: Limits | None = None) -> Execution:
    """Run `probes` against a copy of `build`. Never raises on anything the build does."""
    limits = limits or Limits()
    started = time.monotonic()
    nonce = secrets.token_hex(16)
    with tempfile.TemporaryDirectory(prefix="shopkit-build-") as tmp:
        copy = Path(tmp, "build")
        try:
            copy.mkdir()
            copy_build(Path(build), copy)
        except (OSError, ValueError) as err:
            return Execution(build_error=f"could not copy the build: {err}")
        work = {"probes": [p._asdict() for p in probes]}
        imported, values, done = _parse(_launch(copy, work, limits, nonce), nonce)
        shutil.rmtree(copy, ignore_errors=True)
    seconds = time.monotonic() - started
    if imported is None:
        why = f"the build did not import within {limits.deadline_s:g} s (it exited, hung "
        return Execution(build_error=why + "or was killed before reporting)", seconds=seconds)
    if not imported.get("ok"):
        error = str(imported.get("error", "import failed"))
        return Execution(build_error=error, landlock=bool(imported.get("landlock")),
                         seconds=seconds)
    return Execution(values=values, landlock=bool(imported.get("landlock")), seconds=seconds)


def materialise(files: Mapping[str, str], root: Path) -> None:
    """Write a file tree (relative path -> text) under `root`."""
    for name, text in files.items():
        path = root / name
        if root.resolve() not in path.resolve().parents:
            raise ValueError(f"path escapes the build: {name!r}")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def run_command(files: Mapping[str, str], work: dict[str, Any], limits: Limits) -> dict[str, Any]:
    """Run the CLI (`{"mode": "cli", "argv": [...]}`) or a snippet (`{"mode": "python",
    "code": ...}`) on a file tree: {"exit_code": int | None (timed out), "output": str}."""
    nonce = secrets.token_hex(16)
    with tempfile.TemporaryDirectory(prefix="shopkit-run-") as tmp:
        build, output = Path(tmp, "build"), Path(tmp, "output.txt")
        build.mkdir()
        materialise(files, build)
        data = _launch(build, {**work, "output": str(output)}, limits, nonce)
        text = output.read_text("utf-8", "replace")[:MAX_OUTPUT] if output.exists() else ""
    codes = [r.get("code") for r in _records(data, nonce) if r.get("kind") == "exit"]
    code = codes[0] if codes and isinstance(codes[0], int) else None
    return {"exit_code": code, "output": text}
