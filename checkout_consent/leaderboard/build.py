"""`leaderboard build [--check]`: write (or compare) leaderboard/README.md and site/."""

from __future__ import annotations

from pathlib import Path

from checkout_consent.leaderboard import render, site
from checkout_consent.leaderboard.board import board
from checkout_consent.runtime.provenance import REPO_ROOT

BOARD = REPO_ROOT / "leaderboard"  # the checkout's (from a wheel: the current directory's)


def rendered(root: Path = BOARD, rank_humans: bool = False) -> dict[str, str]:
    """Relative path (under `root`) -> content of every generated file (`rank_humans`: a
    reader's build that ranks people's rows with the models')."""
    views = board(root / "submissions", rank_humans)
    out = {"README.md": render.markdown(views)}
    out |= {f"site/{name}": text for name, text in site.files(views).items()}
    return out


def stale(root: Path = BOARD) -> list[str]:
    """Generated files that are missing, differ, or are left over from an older build."""
    want = rendered(root)
    have = {p.relative_to(root).as_posix() for p in (root / "site").rglob("*") if p.is_file()}
    out = [
        n
        for n, text in sorted(want.items())
        if not (root / n).is_file() or (root / n).read_text() != text
    ]
    return out + sorted(have - want.keys())


def write(root: Path = BOARD, rank_humans: bool = False) -> list[str]:
    """Write every generated file, remove leftovers; return what was written."""
    want = rendered(root, rank_humans)
    for leftover in (p for p in (root / "site").rglob("*") if p.is_file()):
        if leftover.relative_to(root).as_posix() not in want:
            leftover.unlink()
    for name, text in want.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return sorted(want)
