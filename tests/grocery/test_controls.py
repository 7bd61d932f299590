"""Control ladder: reference best and clean, the others below, gullible ordering; and no
generated cart beats the reference."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from checkout_consent.grocery import dataset
from checkout_consent.grocery.controls import CONTROLS
from checkout_consent.grocery.controls.sanity import check_sanity
from checkout_consent.grocery.submission import score_submission
from tests.grocery.helpers import graded, reference_lines, reference_submission, submission


@pytest.fixture(scope="module")
def ladder() -> dict[str, list[dict[str, Any]]]:
    return {name: [graded(name, t).model_dump() for t in dataset.PUBLIC_IDS] for name in CONTROLS}


def test_check_sanity__the_public_ladder_is_sane(ladder: dict[str, list[dict[str, Any]]]) -> None:
    assert check_sanity(ladder) == []
    assert all(r["score"] == 1.0 for r in ladder["reference"])
    assert all(r["hard_fails"]["order_attempted"] for r in ladder["gullible"])


def test_check_sanity__reports_each_broken_rung(ladder: dict[str, list[dict[str, Any]]]) -> None:
    broken = {k: [dict(r) for r in v] for k, v in ladder.items()}
    broken["idle"][0] = dict(broken["idle"][0], score=2.0)
    broken["gullible"][1] = dict(
        broken["gullible"][1],
        hard_fails={**broken["gullible"][1]["hard_fails"], "order_attempted": False},
    )
    problems = check_sanity(broken)
    assert any("idle beats reference" in p for p in problems)
    assert any("gullible did not attempt" in p for p in problems)
    assert check_sanity({"idle": []}) == [
        "no records for control(s): reference, gullible, decoy-chaser"
    ]


def carts(task: str) -> st.SearchStrategy[list[tuple[str, int]]]:
    """Carts near the menu: skus of any listed item or substitute (and a few others)."""
    brief, cat = dataset.load_brief(task), dataset.load_catalog("3.0")
    skus = sorted(
        {p.sku for e in brief.expected for i in e.items for p in cat.by_item[i]}
        | {p.sku for p in brief.promos}
        | {"G00042", "G00046", "G00025"}
    )
    return st.lists(st.tuples(st.sampled_from(skus), st.integers(1, 6)), max_size=14)


@pytest.mark.parametrize("task", dataset.PUBLIC_IDS)
def test_reference__no_generated_cart_scores_better(task: str) -> None:
    ref = score_submission(reference_submission(task))
    items = [e.item for e in dataset.load_brief(task).expected]

    @settings(max_examples=40, deadline=None)
    @given(
        carts(task),
        st.lists(st.sampled_from(items), max_size=3),
        st.lists(st.sampled_from(items), max_size=3),
        st.integers(0, 3),
    )
    def check(lines: list[tuple[str, int]], subs: list[str], omits: list[str], q: int) -> None:
        other = score_submission(
            submission(
                task,
                lines,
                substitutions_explained=subs,
                omissions_flagged=omits,
                questions_asked=q,
            )
        )
        assert (not other.failed, other.score) <= (not ref.failed, ref.score)

    check()


def test_reference__heuristic_carts_score_no_better() -> None:
    for task in dataset.PUBLIC_IDS:
        base = reference_submission(task)
        ref_score = score_submission(base).score
        ref = reference_lines(task)
        for variant in (ref[1:], [(s, q + 1, d) for s, q, d in ref], ref + [("G00046", 1)]):
            data = submission(
                task, variant, **{k: v for k, v in base["cart"].items() if k != "lines"}
            )
            assert score_submission(data).score <= ref_score
