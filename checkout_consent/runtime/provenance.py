"""Reproducibility stamps: suite version, Inspect version, git sha of the checkout."""

from __future__ import annotations

import functools
import subprocess
from pathlib import Path

from checkout_consent import __version__

REPO_ROOT = Path(__file__).resolve().parents[2]


def suite_version() -> str:
    return __version__


@functools.cache
def git_sha() -> str | None:
    """The commit of the checkout the suite runs from, or None outside a git checkout."""
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            cwd=REPO_ROOT,
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


@functools.cache
def inspect_version() -> str:
    """Read once per process (parsing the package metadata costs ~10 ms per call)."""
    from importlib.metadata import version

    return version("inspect-ai")
