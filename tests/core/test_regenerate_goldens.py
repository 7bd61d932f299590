"""The regeneration script's check (tests/core/regenerate_goldens.py): a record that differs
only in its ledger and version stamp has not moved; any other field, or a verdict, has."""

from __future__ import annotations

from tests.core import regenerate_goldens as regen


def _record(score: float, ledger: str, version: str) -> dict:
    return {"score": score, "world_version": version, "consent": {"note": ledger}}


def test_compare__only_the_ledger_and_the_version_stamp_may_change():
    before = {"g.json": {"(records)": regen._steady(_record(1.0, "old", "pizza-5"))}}
    same = {"g.json": {"(records)": regen._steady(_record(1.0, "new", "pizza-6"))}}
    moved = {"g.json": {"(records)": regen._steady(_record(0.5, "new", "pizza-6"))}}
    assert regen.compare(before, same) == []
    assert regen.compare(before, moved) == ["g.json:(records): moved"]
    assert regen.compare(before, {}) == ["g.json: gone"]


def test_compare__a_verdict_that_moved_is_named():
    block = {"verdicts": [{"payment_id": "P-1", "within": False, "breaches": []}]}
    kept = {"verdicts": [{"payment_id": "P-1", "within": False, "breaches": [], "x": 1}]}
    flipped = {"verdicts": [{"payment_id": "P-1", "within": True, "breaches": []}]}
    assert regen._verdicts(block) == regen._verdicts(kept)
    assert regen._verdicts(block) != regen._verdicts(flipped)
