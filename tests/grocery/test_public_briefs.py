"""The public briefs' budgets are their authoring rule's (grocery/authoring/public.py): each
committed brief is what `checkout-consent grocery build public` writes, byte for byte, and
a brief whose cart grows gets its budget raised with it."""

from __future__ import annotations

from pathlib import Path

import pytest

from checkout_consent.cli.main import main
from checkout_consent.grocery import dataset
from checkout_consent.grocery.authoring import build
from checkout_consent.grocery.authoring.public import SLACK, budgeted


def test_public_briefs__every_brief_has_a_budgeting_rule() -> None:
    assert list(SLACK) == list(dataset.PUBLIC_IDS)


def test_grocery_build_public__writes_the_committed_briefs_byte_for_byte(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "public").mkdir()
    monkeypatch.setattr(build, "data_dir", lambda: tmp_path)  # written here, read from tasks/
    assert main(["grocery", "build", "public"]) == 0
    written = sorted(p.name for p in (tmp_path / "public").iterdir())
    assert written == sorted(f"{t}.yaml" for t in dataset.PUBLIC_IDS)
    for name in written:
        committed = dataset.data_dir() / "public" / name
        assert (tmp_path / "public" / name).read_bytes() == committed.read_bytes(), name


@pytest.mark.parametrize("task_id", ["normal-week", "tight-week"])
def test_public_briefs__a_larger_cart_gets_a_larger_budget(task_id: str) -> None:
    brief = dataset.load_brief(task_id)
    catalog = dataset.load_catalog(brief.catalog_version)
    assert budgeted(brief, catalog) == brief
    more = tuple(e.model_copy(update={"quantity": e.quantity * 2}) for e in brief.expected)
    bigger = budgeted(brief.model_copy(update={"expected": more}), catalog)
    assert bigger.budget_cents > brief.budget_cents and bigger.budget_cents % 100 == 0
