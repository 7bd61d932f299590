"""Reproducibility stamps: suite version, Inspect version, git sha of the checkout."""

from __future__ import annotations

import functools
import importlib.resources
import subprocess
from pathlib import Path

from checkout_consent import __version__


def _checkout() -> Path | None:
    """The source checkout the package runs from (an editable install), or None for a wheel."""
    here = Path(str(importlib.resources.files("checkout_consent"))).resolve().parent
    return here if (here / "pyproject.toml").is_file() and (here / "tasks").is_dir() else None


CHECKOUT = _checkout()
# Where the checkout-side folders are read and written (cassettes/, leaderboard/, README.md):
# the checkout, or for an installed wheel the current directory (never the scenario data).
REPO_ROOT = CHECKOUT or Path.cwd()


def suite_version() -> str:
    return __version__


@functools.cache
def git_sha() -> str | None:
    """The commit of the checkout the suite runs from, or None outside a git checkout."""
    if CHECKOUT is None:  # an installed wheel: no checkout to name
        return None
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            cwd=CHECKOUT,
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
