"""`suite` killed with SIGKILL halfway, then started again with the same log dir: it
completes without re-running a sample the logs already held, without losing or duplicating
one, and its records equal an uninterrupted run's. Proven from the logs themselves: a
sample reused from the killed run keeps its uuid and start time; every other sample started
after the restart."""

from __future__ import annotations

import datetime
import json
import os
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path
from typing import Any

import pytest

from checkout_consent.families import WORLDS, world

pytestmark = [pytest.mark.slow, pytest.mark.inspect]

# a family with a variant, so the eval set holds more than one task
FAMILY = next(f for f in WORLDS if len((world(f.name),)) > 1)
MODEL = f"control/{FAMILY.name}-{FAMILY.controls.reference}"
LIMIT = 2
TOTAL = LIMIT * len((world(FAMILY.name),))
# one sample in flight per world and a log write after each, so a kill finds some logged
SUITE = ["suite", "--model", MODEL, "--limit", str(LIMIT), "--max-samples", "1"]
SUITE += ["--log-buffer", "1", "--display", "none", "--json"]


def _command(log_dir: Path) -> list[str]:
    return [sys.executable, "-m", "checkout_consent.cli", "--log-dir", str(log_dir), *SUITE]


def _env(tmp: Path) -> dict[str, str]:
    """Inspect's sample buffers under tmp (not the user's data dir), no colour codes."""
    return {**os.environ, "XDG_DATA_HOME": str(tmp / "data"), "NO_COLOR": "1"}


def _logged(log_dir: Path) -> int:
    """Samples written into the logs so far (a log mid-write counts as none)."""
    count = 0
    for path in log_dir.glob("*.eval"):
        try:
            with zipfile.ZipFile(path) as archive:
                count += sum(n.startswith("samples/") for n in archive.namelist())
        except (zipfile.BadZipFile, OSError):
            continue
    return count


def _samples(log_dir: Path) -> dict[tuple[str, str, int], Any]:
    """(task, sample id, epoch) -> sample, over every readable log; a duplicate fails."""
    from inspect_ai.log import read_eval_log

    out: dict[tuple[str, str, int], Any] = {}
    for path in sorted(log_dir.glob("*.eval")):
        try:
            log = read_eval_log(str(path))
        except Exception:  # the killed run's log may be cut off mid-write
            continue
        for s in log.samples or []:
            key = (str(log.eval.task), str(s.id), s.epoch)
            assert key not in out, f"{key} appears twice"
            out[key] = s
    return out


def _final(log_dir: Path) -> dict[tuple[str, str, int], Any]:
    """The samples of the logs the suite's summary names (one log per world)."""
    from inspect_ai.log import read_eval_log

    doc = json.loads((log_dir / "suite-summary.json").read_text())
    assert doc["complete"] and len(doc["worlds"]) == len((world(FAMILY.name),))
    out: dict[tuple[str, str, int], Any] = {}
    for row in doc["worlds"]:
        log = read_eval_log(str(log_dir / row["log"]))
        for s in log.samples or []:
            key = (row["task"], str(s.id), s.epoch)
            assert key not in out, f"{key} appears twice"
            out[key] = s
    return out


def _record(sample: Any) -> dict[str, Any]:
    (score,) = sample.scores.values()
    return dict(score.metadata["record"])


def _kill_halfway(log_dir: Path, env: dict[str, str]) -> None:
    process = subprocess.Popen(
        _command(log_dir), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    deadline = time.monotonic() + 600
    try:
        while time.monotonic() < deadline:
            assert process.poll() is None, "the suite finished before it could be killed"
            if 1 <= _logged(log_dir) < TOTAL:
                break
            time.sleep(0.05)
        else:
            pytest.fail("no sample was logged within 10 minutes")
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=60)


def test_suite__resumes_after_sigkill_without_rerunning_or_losing_a_sample(
    tmp_path: Path,
) -> None:
    env = _env(tmp_path)
    whole, killed = tmp_path / "whole", tmp_path / "killed"
    _kill_halfway(killed, env)
    before = _samples(killed)
    partial = sorted(p.name for p in killed.glob("*.eval"))
    # the test's precondition, and it can fail: a kill that lands before the first sample is
    # written, or after the last, would prove nothing about resuming, so it fails instead
    assert 1 <= len(before) < TOTAL, "the kill came with some but not all samples logged"
    restart = datetime.datetime.now(datetime.UTC)  # noqa: TID251 (when the restart began)
    again = subprocess.run(_command(killed), env=env, capture_output=True, text=True, timeout=900)
    assert again.returncode == 0, again.stderr[-3000:]
    after = _final(killed)
    doc = json.loads((killed / "suite-summary.json").read_text())
    assert doc["superseded_logs"] == partial  # the killed run's logs: named, not counted
    assert len(after) == TOTAL  # none lost, none twice (`_final` refuses a duplicate)
    for key, sample in after.items():
        if key in before:  # reused from the killed run's log, not played again
            assert (sample.uuid, sample.started_at) == (before[key].uuid, before[key].started_at)
        else:  # played by the second run
            assert datetime.datetime.fromisoformat(sample.started_at) >= restart, key
    replayed = [k for k in after if k not in before]
    assert len(replayed) == TOTAL - len(before)
    done = subprocess.run(_command(whole), env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    uninterrupted = _final(whole)
    assert set(uninterrupted) == set(after)
    for key in after:
        assert _record(after[key]) == _record(uninterrupted[key]), key
    whole_doc = json.loads((whole / "suite-summary.json").read_text())
    assert whole_doc["superseded_logs"] == []
    assert [r["headline"] for r in doc["worlds"]] == [r["headline"] for r in whole_doc["worlds"]]
