"""Every entry point parses its arguments: `--help` prints help and exits 0 with no side
effect (no log, no rewritten file), and a log directory that starts with `-` (a mistyped
option such as --help) is refused in one line, before anything runs."""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from checkout_consent.cli.main import main, parser
from checkout_consent.runtime.provenance import REPO_ROOT

PACKAGE = REPO_ROOT / "checkout_consent"


def python_m_modules() -> list[str]:
    """Every module of the package with a `__main__` block (run as `python -m`)."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        main_block = re.search(
            r'^if __name__ == "__main__":', path.read_text(encoding="utf-8"), re.M
        )
        if main_block or path.name == "__main__.py":
            module = path.relative_to(REPO_ROOT).with_suffix("").parts
            found.append(".".join(module[:-1] if module[-1] == "__main__" else module))
    return found


def _status() -> str:
    return subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all"],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    return subprocess.run(
        [sys.executable, *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )


@pytest.mark.slow
def test_python_m__every_module_prints_help_and_changes_nothing(tmp_path: Path) -> None:
    modules = python_m_modules()
    assert "checkout_consent.cli.readme" in modules and "checkout_consent.cli" in modules
    before = _status()
    for module in modules:
        out = _run(["-m", module, "--help"], tmp_path)
        assert out.returncode == 0, (module, out.stderr[-500:])
        assert "usage" in out.stdout.lower(), module
    assert list(tmp_path.iterdir()) == [] and _status() == before


def _verbs(ap: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    out = [path]
    for action in ap._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                out += _verbs(child, (*path, name))
    return out


def test_cli__every_verb_prints_help_and_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    verbs = _verbs(parser())
    assert ("run",) in verbs and len(verbs) > 10
    for verb in verbs:
        with pytest.raises(SystemExit) as stop:
            main([*verb, "--help"])
        assert stop.value.code == 0, verb
        assert "usage: checkout-consent" in capsys.readouterr().out, verb


@pytest.mark.parametrize(
    "args",
    [
        ["--log-dir=--help", "list"],
        ["--log-dir", "--help", "list"],
        ["run", "storefront", "--model", "control/storefront-oracle", "--log-dir", "--help"],
        ["run", "storefront", "--log-dir=-o"],
        ["sanity", "storefront", "--log-dir="],
    ],
)
def test_cli__a_log_dir_that_starts_with_a_dash_is_refused_in_one_line(
    tmp_path: Path,
    args: list[str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as stop:
        main(args)
    out = capsys.readouterr()
    assert stop.value.code == 2 and out.out == ""
    assert len(out.err.strip().splitlines()) == 1 and "--log-dir" in out.err
    assert list(tmp_path.iterdir()) == []


def test_cli__a_dash_log_dir_is_refused_by_a_fresh_process(tmp_path: Path) -> None:
    out = _run(["-m", "checkout_consent.cli", "--log-dir=--help", "list"], tmp_path)
    assert out.returncode == 2 and out.stdout == ""
    assert len(out.stderr.strip().splitlines()) == 1 and "--log-dir" in out.stderr
    assert list(tmp_path.iterdir()) == []


def test_cli__log_dir_is_taken_before_or_after_the_verb() -> None:
    ap = parser()
    assert ap.parse_args(["run", "storefront", "--log-dir", "a"]).log_dir == "a"
    assert ap.parse_args(["--log-dir", "b", "run", "storefront"]).log_dir == "b"
    assert ap.parse_args(["list", "--log-dir", "./-c"]).log_dir == "./-c"
    assert ap.parse_args(["run", "storefront"]).log_dir == "logs"
