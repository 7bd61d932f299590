"""The two things a build is run for: probing it (grading) and running one command on it
(the agent's run tools). Both go through the confined sandbox and never raise on
anything the build does.

A confined run sees nothing but its files, its job and its limits: writes stay inside
its temporary directory, which is deleted, and it has no network. So a finished run's
result is kept (`RESULTS`) by the digest of those three and handed back when they come
again, in this process, instead of launching the sandbox again: the same command on an
unchanged tree (a model re-running the CLI, every sample's first look at the seed build,
an epoch, a regrade) costs a dictionary lookup instead of about 35 ms of CPU. A run that
hit a deadline is never kept: under load it might finish next time."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import tempfile
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from checkout_consent.shopkit.assertions import Probe
from checkout_consent.shopkit.sandbox import remote
from checkout_consent.shopkit.sandbox.sandbox import (
    MAX_OUTPUT,
    Limits,
    copy_build,
    ended,
    is_int,
    materialise,
    read_build,
    run,
)

Records = list[dict[str, Any]]


class Results:
    """Finished runs by digest, least recently used dropped beyond `size`; thread-safe
    (Inspect may run tools on worker threads). Values are JSON-able and copied on the
    way in and out, so no caller can change what another is handed."""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self._kept: OrderedDict[str, str] = OrderedDict()
        self._lock = threading.Lock()

    @staticmethod
    def key(*parts: Any) -> str:
        """The digest of a run's inputs (any JSON-able parts; lone surrogates allowed)."""
        text = json.dumps(parts, sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()

    def get(self, key: str) -> Any | None:
        with self._lock:
            found = self._kept.get(key)
            if found is None:
                return None
            self._kept.move_to_end(key)
        return json.loads(found)

    def put(self, key: str, value: Any) -> None:
        text = json.dumps(value)
        with self._lock:
            self._kept[key] = text
            self._kept.move_to_end(key)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)


RESULTS = Results()


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


def _probe_records(build: Path, work: dict[str, Any], limits: Limits) -> Records:
    """The records of probing a copy of `build`, here or in the sandbox (`remote`);
    OSError or ValueError if the build cannot be copied."""
    launcher = remote.LAUNCHER.get()
    if launcher is not None:
        return launcher.launch(read_build(Path(build)), work, limits)[0]
    with tempfile.TemporaryDirectory(prefix="shopkit-build-") as tmp:
        copy = Path(tmp, "build")
        copy.mkdir()
        copy_build(Path(build), copy)
        return run(copy, work, limits)


def execute(build: Path, probes: Sequence[Probe], limits: Limits | None = None) -> Execution:
    """Run `probes` against a copy of `build`."""
    limits = limits or Limits()
    started = time.monotonic()
    try:
        records = _probe_records(build, {"probes": [p._asdict() for p in probes]}, limits)
    except (OSError, ValueError) as err:
        return Execution(build_error=f"could not copy the build: {err}")
    imported, values = _observations(records)
    seconds = time.monotonic() - started
    if imported is None:
        return Execution(build_error=_no_import(records, limits), seconds=seconds)
    landlock = bool(imported.get("landlock"))
    if not imported.get("ok"):
        error = str(imported.get("error", "import failed"))
        return Execution(build_error=error, landlock=landlock, seconds=seconds)
    return Execution(values=values, landlock=landlock, seconds=seconds)


def _command_records(
    files: Mapping[str, str], work: dict[str, Any], limits: Limits
) -> tuple[Records, str]:
    """A command's records and output (paths inside the build shown relative to it, as the
    supervisor reports it: the run's tree is a tmpfs only it sees), run here or in the
    sandbox (`remote`); OSError or ValueError if the tree cannot be written."""
    launcher = remote.LAUNCHER.get()
    if launcher is not None:
        remote.check_tree(files)
        found, where = launcher.launch(files, work, limits)
    else:
        with tempfile.TemporaryDirectory(prefix="shopkit-run-") as tmp:
            build, output = Path(tmp, "build"), Path(tmp, "output.txt")
            build.mkdir()
            materialise(files, build)
            found, where = run(build, {**work, "output": str(output)}, limits), str(build)
    shown = [r["text"] for r in found if r.get("kind") == "output"]  # the supervisor's
    text = shown[-1] if shown and isinstance(shown[-1], str) else ""
    return found, (text.replace(f"{where}/", "") if where else text)[:MAX_OUTPUT]


def run_command(files: Mapping[str, str], work: dict[str, Any], limits: Limits) -> dict[str, Any]:
    """Run the CLI (`{"mode": "cli", "argv": [...]}`) or a snippet (`{"mode": "python",
    "code": ...}`) on a file tree: {"exit_code": int, or None if it timed out, "output"}.
    Paths inside the build show relative to it (`shopkit/orders.py`), never the temporary
    directory's name, so the same run shows the same output. A tree that cannot be written
    (a path escaping it, text that is not UTF-8) ends as exit code 1 with the reason."""
    launcher = remote.LAUNCHER.get()
    place = [launcher.where] if launcher is not None else []  # kept per place runs go
    key = RESULTS.key(sorted(files.items()), work, dataclasses.astuple(limits), *place)
    kept = RESULTS.get(key)
    if kept is not None:
        return kept  # type: ignore[no-any-return]
    try:
        records, text = _command_records(files, work, limits)
    except (OSError, ValueError) as err:
        return {"exit_code": 1, "output": f"the build could not be written: {err}"[:500]}
    exits = [r["code"] for r in records if r.get("kind") == "exit" and is_int(r.get("code"))]
    last = ended(records)
    code = exits[0] if exits else (None if last["timed_out"] else last["status"])
    result = {"exit_code": code, "output": text}
    if code is not None:
        RESULTS.put(key, result)
    return result
