"""No shared layer names a family: a family's name appears only in its own folder, its tasks
and the roster (`checkout_consent/families.py`), so adding a family touches nothing else."""

from __future__ import annotations

import re
from pathlib import Path

from checkout_consent.families import names

PACKAGE = Path(__file__).resolve().parents[2] / "checkout_consent"
SHARED = ("core", "runtime", "endpoint", "cli", "cassettes", "leaderboard", "serve")


def occurrences(root: Path, words: list[str]) -> list[str]:
    """Every `path:line: word` in the .py files under root where a family's name stands
    as a word (in code, strings, comments and docstrings alike)."""
    pattern = re.compile(
        r"(?<![A-Za-z0-9_])(" + "|".join(map(re.escape, words)) + r")(?![a-z])", re.IGNORECASE
    )
    found = []
    for path in sorted(root.rglob("*.py")):
        for n, text in enumerate(path.read_text().splitlines(), 1):
            for m in pattern.finditer(text):
                found.append(f"{path.relative_to(root.parent)}:{n}: {m.group(0)}")
    return found


def test_family_names__appear_in_no_shared_layer() -> None:
    found = [hit for layer in SHARED for hit in occurrences(PACKAGE / layer, names())]
    assert found == [], "family names in shared layers:\n" + "\n".join(found)


def test_family_names__the_rule_catches_a_planted_name(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("x = 1\n# see the Pizza desk\ny = 'grocery_total'\n")
    got = occurrences(tmp_path, names())
    assert [g.rsplit(": ", 1)[1] for g in got] == ["Pizza", "grocery"]
