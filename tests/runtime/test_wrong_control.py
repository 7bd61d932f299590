"""A control of another family under `inspect eval` / `inspect eval-set` is refused as the
task is built: one line, a non-zero exit, no sample run and no log written."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from checkout_consent.families import WORLDS

pytestmark = pytest.mark.inspect

A, B = WORLDS[0], WORLDS[1]
CONTROL = f"control/{A.name}-{A.controls.reference}"


def _inspect(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "inspect_ai", *args, "--log-dir", "logs"],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )


@pytest.mark.parametrize("verb", ["eval", "eval-set"])
def test_inspect__a_control_of_another_family_is_refused_in_one_line(
    tmp_path: Path, verb: str
) -> None:
    tasks = [f"checkout_consent/{B.name}"]
    if verb == "eval-set":  # its own family's task first: still nothing runs
        tasks.insert(0, f"checkout_consent/{A.name}")
    out = _inspect(verb, *tasks, "--model", CONTROL, cwd=tmp_path)
    said = [line for line in (out.stdout + out.stderr).splitlines() if line.strip()]
    assert out.returncode != 0
    assert said == [f"{CONTROL} cannot play {B.name}: it is a {A.name} control"], said
    assert not list(tmp_path.rglob("*.eval"))
