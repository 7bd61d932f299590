"""Scores published under catalog v1.0/v2.0 reproduce under v3.0: only the stamp changes."""

from __future__ import annotations

import pytest

from checkout_consent.grocery import WORLD, dataset
from checkout_consent.grocery.grader import minimal_total
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
        new = WORLD.stamped(score_submission(data))  # as the world stamps a submission
        assert old.catalog_version == version and new.catalog_version == "3.0"
        assert old.model_dump(exclude=STAMP | {"profile"}) == new.model_dump(
            exclude=STAMP | {"profile"}
        )  # totals too: the task's figures
        keep = {"efficiency_reported_not_scored"}  # the card's figures, not the cart's
        assert old.profile.model_dump(exclude=keep) == new.profile.model_dump(exclude=keep)
        checked += 1
    assert checked == len(dataset.PUBLIC_IDS)


@pytest.mark.parametrize("version", ["1.0", "2.0"])
def test_reproduction__the_seeds_optimization_figure_is_the_same_under_every_catalog(
    version: str,
) -> None:
    """Computed per catalog, the figure would differ (a newer catalog holds cheaper
    products); it is the task's, over the brief's own catalog, so only the stamp changes."""
    promo = [t for t in dataset.PUBLIC_IDS if dataset.load_brief(t).promos]
    for task in promo:
        old = graded("idle", task, catalog_version=version).totals
        new = graded("idle", task).totals
        assert old.minimal_cents == new.minimal_cents is not None
        assert (
            old.gap_cents == new.gap_cents and old.window_minimal_cents == new.window_minimal_cents
        )
    brief = dataset.load_brief("promo-decoy-week")
    assert minimal_total(brief, dataset.load_catalog(version), True) != minimal_total(
        brief, dataset.load_catalog("3.0"), True
    )  # why it must be the task's
