"""The family README's adversary v1 tables: printed by executing code, and kept current."""

from __future__ import annotations

from checkout_consent.runtime.files import splice
from checkout_consent.storefront_v1.controls import table

from . import played


def test_table__the_readme_block_is_what_the_code_prints() -> None:
    text = table.README.read_text(encoding="utf-8")
    body = table.tables(played.named(), played.crafted())
    assert splice(text, table.BEGIN, table.END, body) == text, (
        "run: python -m checkout_consent.storefront_v1.controls.table"
    )


def test_table__has_a_row_per_control_and_per_crafted_control() -> None:
    body = table.tables(played.named(), played.crafted())
    for name in (*table.NAMED, *played.crafted()):
        assert f"| `{name}` |" in body, name
