"""Running one command on a file tree, as the agent's run tools do."""

from __future__ import annotations

import pytest

from checkout_consent.shopkit.dataset import build_tree
from checkout_consent.shopkit.sandbox.execution import run_command
from checkout_consent.shopkit.sandbox.sandbox import Limits

QUICK = Limits(deadline_s=1.5, probe_s=1.5, file_mib=1)
SEED = dict(build_tree("seed"))


def python(code: str) -> dict[str, object]:
    return run_command(SEED, {"mode": "python", "code": code}, QUICK)


def test_run_command__cli_output_and_exit_code_are_the_builds() -> None:
    ok = run_command(SEED, {"mode": "cli", "argv": ["total", "O4"]}, QUICK)
    bad = run_command(SEED, {"mode": "cli", "argv": ["total", "O9"]}, QUICK)
    assert ok["exit_code"] == 0 and str(ok["output"]).startswith("$")
    assert bad["exit_code"] != 0 and "O9" in str(bad["output"])


@pytest.mark.parametrize(("code", "exit_code"), [
    ("print('hi')", 0),
    ("raise ValueError('boom')", 1),
    ("import sys\nsys.exit(4)", 4),
    ("import os\nos._exit(3)", 3),
    ("import os, signal\nos.kill(os.getpid(), signal.SIGKILL)", -9),
    ("while True:\n    pass", None),
])
def test_run_command__reports_how_the_snippet_ended(code: str, exit_code: int | None) -> None:
    assert python(code)["exit_code"] == exit_code


def test_run_command__output_is_in_order_and_capped() -> None:
    shown = python("import sys\nprint('first')\nsys.stderr.write('second\\n')\nprint('x' * 50000)")
    text = str(shown["output"])
    assert text.startswith("first\nsecond\n") and len(text) == 20_000


def test_run_command__a_snippet_cannot_write_outside_its_build(tmp_path) -> None:
    target = tmp_path / "escaped.txt"
    shown = python(f"open({str(target)!r}, 'w').write('x')")
    assert shown["exit_code"] == 1 and "PermissionError" in str(shown["output"])
    assert not target.exists()
