"""What `run` prints: with --json, stdout is the JSON alone (Inspect's display goes to stderr
or is off), so `| jq` works; the controls-only run ends with one line per world and a total."""

from __future__ import annotations

import dataclasses
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from checkout_consent.cli import run as cli_run
from checkout_consent.cli.main import main
from checkout_consent.core.contract import Controls
from checkout_consent.families import WORLDS
from checkout_consent.runtime.meta import task_params

# a world alone in its family, one epoch
WORLD = next(w for w in WORLDS if [v.family for v in WORLDS].count(w.family) == 1 and w.epochs == 1)


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "checkout_consent.cli", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
        stdin=subprocess.DEVNULL,
    )


# a model run through Inspect in a subprocess; in the default run, tests/cli/test_suite.py's
# test_suite__plays_the_worlds_and_writes_their_headlines holds that a model run through
# Inspect with --json prints the JSON alone on stdout, and tests/cli/test_task_once.py runs
# `run storefront --model control/storefront-oracle` through Inspect
@pytest.mark.slow
@pytest.mark.inspect
def test_run_json__stdout_is_only_json_for_a_model_run(tmp_path: Path) -> None:
    world = WORLDS[0]
    model = f"control/{world.family}-{world.controls.reference}"
    one = ["--seeds", "0"] if "seeds" in task_params(world) else []
    out = _cli(
        "run", world.name, "--model", model, *one, "--json", "--log-dir", "logs", cwd=tmp_path
    )
    assert out.returncode == 0, out.stderr[-2000:]
    (entry,) = json.loads(out.stdout)  # nothing but the JSON on stdout
    assert entry["model"] == model and entry["records"]
    assert Path(entry["log"]).is_file() and "sanity" in out.stderr
    if shutil.which("jq"):  # as a user pipes it
        piped = subprocess.run(
            ["jq", ".[0].model"], input=out.stdout, capture_output=True, text=True, timeout=60
        )
        assert piped.returncode == 0 and json.loads(piped.stdout) == model


def test_run__controls_end_with_a_line_per_world_and_a_total(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["run", WORLD.name]) == 0
    tail = capsys.readouterr().out.rstrip().splitlines()[-2:]
    assert tail[0].startswith(f"{WORLD.name}: {len(WORLD.controls.sanity)} controls, ")
    assert tail[0].endswith(", as expected")
    assert tail[1] == "total: every control of 1 worlds as expected"


def test_run_json__controls_print_only_json_and_the_total_on_stderr(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["run", WORLD.name, "--json"]) == 0
    out = capsys.readouterr()
    entries = json.loads(out.out)
    assert {e["model"] for e in entries} == {
        f"control/{WORLD.family}-{c}" for c in WORLD.controls.sanity
    }
    assert out.err.rstrip().endswith("total: every control of 1 worlds as expected")


def test_run__a_world_whose_controls_misbehave_is_named_in_the_total(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    own = WORLD.controls
    controls = Controls(
        own,
        sanity=own.sanity,
        reference=own.reference,
        idle=own.idle,
        check_sanity=lambda records: ["forced for the test"],
        recorded=own.recorded,
        exploits=own.exploits,
    )
    broken = dataclasses.replace(WORLD, controls=controls)
    original = cli_run.world_named

    def world_named(name: str) -> Any:
        return broken if name == WORLD.name else original(name)

    monkeypatch.setattr(cli_run, "world_named", world_named)
    assert main(["run", WORLD.name]) == 2
    out = capsys.readouterr()
    assert "sanity problem: forced for the test" in out.err
    assert out.out.rstrip().splitlines()[-1] == (
        f"total: 1 of 1 worlds NOT as expected: {WORLD.name}"
    )
