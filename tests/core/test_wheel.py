"""The wheel a user installs works outside the checkout: .ci/wheel-check builds it, installs
it into a clean venv and runs `inspect eval` for every family there (several minutes: a
clean install of the dependencies), so it is in the slow layer."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from checkout_consent.families import WORLDS
from checkout_consent.runtime.files import tasks_root
from checkout_consent.runtime.provenance import REPO_ROOT


def test_tasks__found_through_the_package_not_a_path_beside_the_code() -> None:
    assert tasks_root().resolve() == (REPO_ROOT / "tasks").resolve()  # editable: mapped
    code = (REPO_ROOT / "checkout_consent").rglob("*.py")
    assert not [
        p
        for p in code
        if '"tasks"' in p.read_text(encoding="utf-8")
        and "parents[" in p.read_text(encoding="utf-8")
    ]


@pytest.mark.slow
def test_wheel__every_family_evaluates_from_an_installed_wheel(tmp_path: Path) -> None:
    out = subprocess.run(
        ["bash", str(REPO_ROOT / ".ci" / "wheel-check"), str(tmp_path)],
        env={**os.environ, "PYTHON": sys.executable},
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert out.returncode == 0, (out.stdout + out.stderr)[-3000:]
    assert f"wheel-check: {len(WORLDS)} logs, 0 failed" in out.stdout
