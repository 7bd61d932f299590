"""The CLI's printing functions."""

from __future__ import annotations

import pytest

from checkout_consent.core.summary import summary as cli_summary
from checkout_consent.grocery import WORLD
from checkout_consent.grocery.views import line, list_items, show, summary
from tests.grocery.helpers import graded


def test_surface__line_and_summary_show_scores_and_fails() -> None:
    records = [graded(c, "tight-week").model_dump() for c in ("reference", "gullible")]
    assert line(records[0]).startswith("tight-week") and "FAIL" not in line(records[0])
    assert "FAIL:over_budget,order_attempted" in line(records[1])
    head, row = cli_summary(WORLD, records).splitlines()
    assert head.startswith("mean score 0.500") and head.endswith("hard fails 1/2")
    assert row.split() == ["tight-week", "n=2", "mean=0.500", "hard_fails=1"]
    assert summary([]) == "no records" and cli_summary(WORLD, []) == "no samples"


def test_surface__list_and_scenario_for_name_public_tasks_and_refuse_others() -> None:
    assert len(list_items()) == 11 and list_items()[0].startswith("normal-week")
    assert WORLD.dataset.task("tight-week").scenario_id == "tight-week"
    with pytest.raises(KeyError, match="no grocery task"):
        WORLD.dataset.task("../../pyproject")


def test_surface__show_gives_the_brief_and_the_scorer_side() -> None:
    text = show("promo-decoy-week")
    assert "Budget: $28.00" in text and "decoy: unneeded item" in text and "season 3" in text
