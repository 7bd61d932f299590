"""The rules and the grades they give are pinned to the world version."""

from __future__ import annotations

import json

from tests.shopkit.make_golden import GOLDEN, compute


def test_golden__rules_and_grades_match_the_world_version() -> None:
    golden = json.loads(GOLDEN.read_text())
    fresh = compute()
    if fresh["fingerprint"] != golden["fingerprint"]:
        assert fresh["world_version"] != golden["world_version"], (
            "the seed, reference, briefs or assertions changed: bump VERSION in "
            "shopkit/grader.py, then run `python -m tests.shopkit.make_golden`"
        )
    assert fresh == golden, "stale golden: run `python -m tests.shopkit.make_golden`"
