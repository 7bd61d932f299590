"""The README's seed table is current, and the family stays within its size budget."""

from __future__ import annotations

import re
from pathlib import Path

import checkout_consent.grocery as grocery
from checkout_consent.grocery.harness.seedtable import table

PACKAGE = Path(grocery.__file__).parent


def test_readme__seed_table_matches_the_code() -> None:
    assert table() in (PACKAGE / "README.md").read_text(encoding="utf-8")


def test_package__world_modules_stay_under_1200_lines_and_pure() -> None:
    files = list(PACKAGE.glob("*.py"))
    assert sum(len(f.read_text().splitlines()) for f in files) < 1200
    banned = re.compile(r"import random|import uuid|inspect_ai|subprocess|datetime\.now|"
                        r"time\.time|(?<![\w.])open\(")
    for f in files:
        text = f.read_text()
        assert not banned.search(text), f.name
        if f.name != "dataset.py":
            assert "read_text" not in text and "write_text" not in text, f.name
