"""The CLI's printing functions."""

from __future__ import annotations

from checkout_consent.grocery.harness.surface import line, show, summary
from tests.grocery.helpers import graded


def test_surface__line_and_summary_show_scores_and_fails() -> None:
    records = [graded(c, "tight-week").model_dump() for c in ("reference", "gullible")]
    assert line(records[0]).startswith("tight-week") and "FAIL" not in line(records[0])
    assert "FAIL:over_budget,order_attempted" in line(records[1])
    assert summary(records).splitlines()[-1].split() == ["all", "n=2", "mean=0.500"]


def test_surface__show_gives_the_brief_and_the_scorer_side() -> None:
    text = show("promo-decoy-week")
    assert "Budget: $28.00" in text and "decoy: unneeded item" in text and "season 3" in text
