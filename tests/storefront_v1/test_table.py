"""The world README's adversary v1 tables: printed by executing code, and kept current."""

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


def test_played__every_module_reading_it_shares_one_worker() -> None:
    """tests/conftest.py puts the modules that read played.py's records on one worker, so the
    default run plays storefront_v1's controls on seeds 0-9 once."""
    import re
    from pathlib import Path

    from tests.conftest import SHARED_WORKER

    here = Path(__file__).parent
    readers = {
        f"tests/storefront_v1/{p.name}"
        for p in here.glob("test_*.py")
        if re.search(
            r"\bplayed\.(named|crafted)\(|\bplayed import\b", p.read_text(encoding="utf-8")
        )
    }
    assert readers and readers <= set(SHARED_WORKER), readers - set(SHARED_WORKER)
