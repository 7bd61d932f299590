"""The README's seed table is current (size and purity: tests/core/test_architecture.py)."""

from __future__ import annotations

from pathlib import Path

import checkout_consent.grocery as grocery
from checkout_consent.grocery.authoring.seed_table import table

PACKAGE = Path(grocery.__file__).parent


def test_readme__seed_table_matches_the_code() -> None:
    assert table() in (PACKAGE / "README.md").read_text(encoding="utf-8")
