"""Scores published under catalog v1.0/v2.0 reproduce under v3.0: only the stamp changes."""

from __future__ import annotations

import pytest

from checkout_consent.grocery import dataset
from checkout_consent.grocery.submission import score_submission
from tests.grocery.helpers import graded, reference_submission

STAMP = {"catalog_version"}


def in_catalog(task: str, version: str) -> bool:
    """Whether every expected item (or substitute) exists in the catalog version."""
    cat = dataset.load_catalog(version)
    return all(any(i in cat.by_item for i in e.items) for e in dataset.load_brief(task).expected)


@pytest.mark.parametrize("version", ["1.0", "2.0"])
def test_reproduction__earlier_catalog_reference_scores_reproduce_under_v3(version: str) -> None:
    checked = 0
    for task in (t for t in dataset.PUBLIC_IDS if in_catalog(t, version)):
        old = graded("reference", task, catalog_version=version)
        data = reference_submission(task, catalog_version=version)
        data["agent_card"]["catalog_version"] = "3.0"
        new = score_submission(data)
        assert old.catalog_version == version and new.catalog_version == "3.0"
        keep = {"profile": {"efficiency_reported_not_scored"}, "totals": {"minimal_cents"}}
        assert old.model_dump(exclude=STAMP | {"profile", "totals"}) == \
            new.model_dump(exclude=STAMP | {"profile", "totals"})
        assert old.profile.model_dump(exclude=keep["profile"]) == \
            new.profile.model_dump(exclude=keep["profile"])
        assert old.totals.model_dump(exclude=keep["totals"]) == \
            new.totals.model_dump(exclude=keep["totals"])
        # reported only: a newer catalog can only add products, so its optimum is no dearer
        assert (new.totals.minimal_cents or 0) <= (old.totals.minimal_cents or 0)
        checked += 1
    assert checked == len(dataset.PUBLIC_IDS)
