"""Broken submissions, made at test time in tmp dirs from the committed examples."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from checkout_consent.runtime.provenance import REPO_ROOT

SUBMISSIONS = REPO_ROOT / "leaderboard" / "submissions"
# Small examples: shopkit's noop (5 runs) and storefront's oracle (10 runs).
SMALL = ("shopkit", "control-shopkit-noop")
STOREFRONT = ("storefront", "control-storefront-oracle")


def copy_example(tmp: Path, family: str, sid: str, *, cassettes: bool = False) -> Path:
    """A copy of a committed example under tmp/<family>/<id>/ (cassettes left out unless
    asked: replaying them runs Inspect)."""
    folder = tmp / family / sid
    shutil.copytree(
        SUBMISSIONS / family / sid,
        folder,
        ignore=None if cassettes else shutil.ignore_patterns("cassettes"),
    )
    return folder


def edit_card(folder: Path, change: Callable[[dict[str, Any]], None]) -> None:
    path = folder / "submission.yaml"
    data = yaml.safe_load(path.read_text())
    change(data)
    path.write_text(yaml.safe_dump(data, sort_keys=False))


def edit_log(folder: Path, change: Callable[[Any], None]) -> None:
    """Rewrite the submission's log after `change(log)` (a forger's edit)."""
    from inspect_ai.log import read_eval_log, write_eval_log

    path = folder / "logs" / "run.eval"
    log = read_eval_log(str(path))
    change(log)
    write_eval_log(log, str(path))


def planted_key() -> str:
    """A key-shaped string assembled at run time, so none is committed."""
    return "sk-" + "proj-" + "Zq7" * 10


def screenshot(page: str, shot: Path, width: int, height: int) -> None:
    """A headless Chromium's screenshot of `page` (a URI) at `width` x `height`."""
    from tests.conftest import chromium

    browser = chromium()
    assert browser is not None, "CI needs chromium: .ci/run installs it"
    subprocess.run(
        [
            browser,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            f"--window-size={width},{height}",
            f"--screenshot={shot}",
            page,
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )
