"""Adding a family is its folder plus one roster line: a scratch family (tests/scratch/)
is appended to the roster in a fresh process, touching nothing else, and runs through
`inspect_ai.eval`, the CLI (`list`, `run --json`), the board and the scoring API."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from checkout_consent.runtime.provenance import REPO_ROOT


@pytest.mark.inspect
def test_scratch_family__runs_on_every_surface_from_one_roster_line() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "tests.scratch.play"],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    got = json.loads(out.stdout)
    assert got["status"] == "success"
    assert got["metrics"]["mean_%"] == 100.0 and got["metrics"]["n_tasks"] == 2
    code, listed = got["list"]
    assert code == 0 and "coinjar (world coinjar-1" in listed and "control/coinjar-exact" in listed
    code, runs = got["run"]
    assert code == 0 and [r["summary"].split(" (")[0] for r in runs] == ["mean score 0.0%"]
    assert [(e["agent"], e["value"]) for e in got["api"]] == [("exact", 1.0), ("over", 0.0)]
    assert got["board"] == 1
