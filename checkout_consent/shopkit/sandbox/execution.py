"""The two things a build is run for: probing it (grading) and running one command on it
(the agent's run tools). Both go through the confined sandbox and never raise on
anything the build does."""

from __future__ import annotations

import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from checkout_consent.shopkit.assertions import Probe
from checkout_consent.shopkit.sandbox.sandbox import (
    MAX_OUTPUT,
    Limits,
    copy_build,
    ended,
    is_int,
    materialise,
    run,
)

Records = list[dict[str, Any]]


@dataclass(frozen=True)
class Execution:
    """What one run of a build gave: observations by probe name, or why there are none."""

    values: dict[str, list[Any]] = field(default_factory=dict)
    build_error: str | None = None
    landlock: bool = False
    seconds: float = 0.0


def _no_import(records: Records, limits: Limits) -> str:
    """Why a build never reported its import, in words."""
    last = ended(records)
    if last["timed_out"]:
        return f"the build did not finish importing within {limits.deadline_s:g} s"
    status = last["status"]
    if isinstance(status, int) and status < 0:
        return f"the build was killed by signal {-status} while importing (a resource limit?)"
    return f"the build exited with status {status} while importing, before reporting"


def _observations(records: Records) -> tuple[dict[str, Any] | None, dict[str, list[Any]]]:
    """The import record and the first value per probe reported after it."""
    imported: dict[str, Any] | None = None
    values: dict[str, list[Any]] = {}
    for record in records:
        kind = record.get("kind")
        if kind == "import" and imported is None:
            imported = record
        elif kind == "probe" and imported is not None and isinstance(record.get("value"), list):
            values.setdefault(str(record.get("name")), record["value"])
    return imported, values


def execute(build: Path, probes: Sequence[Probe], limits: Limits | None = None) -> Execution:
    """Run `probes` against a copy of `build`."""
    limits = limits or Limits()
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="shopkit-build-") as tmp:
        copy = Path(tmp, "build")
        try:
            copy.mkdir()
            copy_build(Path(build), copy)
        except (OSError, ValueError) as err:
            return Execution(build_error=f"could not copy the build: {err}")
        records = run(copy, {"probes": [p._asdict() for p in probes]}, limits)
    imported, values = _observations(records)
    seconds = time.monotonic() - started
    if imported is None:
        return Execution(build_error=_no_import(records, limits), seconds=seconds)
    landlock = bool(imported.get("landlock"))
    if not imported.get("ok"):
        error = str(imported.get("error", "import failed"))
        return Execution(build_error=error, landlock=landlock, seconds=seconds)
    return Execution(values=values, landlock=landlock, seconds=seconds)


def run_command(files: Mapping[str, str], work: dict[str, Any], limits: Limits) -> dict[str, Any]:
    """Run the CLI (`{"mode": "cli", "argv": [...]}`) or a snippet (`{"mode": "python",
    "code": ...}`) on a file tree: {"exit_code": int, or None if it timed out, "output"}."""
    with tempfile.TemporaryDirectory(prefix="shopkit-run-") as tmp:
        build, output = Path(tmp, "build"), Path(tmp, "output.txt")
        build.mkdir()
        materialise(files, build)
        records = run(build, {**work, "output": str(output)}, limits)
        text = output.read_text("utf-8", "replace")[:MAX_OUTPUT] if output.exists() else ""
    exits = [r["code"] for r in records if r.get("kind") == "exit" and is_int(r.get("code"))]
    last = ended(records)
    code = exits[0] if exits else (None if last["timed_out"] else last["status"])
    return {"exit_code": code, "output": text}
