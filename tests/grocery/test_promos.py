"""Promotions: each rule's arithmetic, the exact minimal total, the seed's promo sets, the
decoys' traps and the dated tight-week rule."""

from __future__ import annotations

from datetime import date
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from checkout_consent.grocery import dataset
from checkout_consent.grocery.actions import MAX_PACKS
from checkout_consent.grocery.brief import Brief
from checkout_consent.grocery.grader import (
    PROMO_FIX_DATE,
    cost,
    minimal_total,
    optimum,
    promo_pricing,
    window_minimal_total,
)
from checkout_consent.grocery.promos import Kind, Promo, line_cost
from checkout_consent.grocery.submission import InvalidSubmission, score_submission
from tests.grocery.helpers import graded, reference_lines, submission

PROMO_TASKS = ("sale-week", "tight-week", "promo-decoy-week")


@pytest.mark.parametrize(
    ("promo", "qty", "cents"),
    [
        (Promo(sku="X", kind="percent", percent_bp=2500), 3, 225),
        (Promo(sku="X", kind="n_for_m", n=2, m=1), 5, 300),
        (Promo(sku="X", kind="bxgy", n=2, m=1), 7, 500),
        (Promo(sku="X", kind="threshold", n=6, off_cents=150), 5, 500),
        (Promo(sku="X", kind="threshold", n=6, off_cents=150), 6, 450),
        (None, 4, 400),
    ],
)
def test_line_cost__each_rule_in_integer_cents(promo: Promo | None, qty: int, cents: int) -> None:
    assert line_cost(promo, qty, 100) == cents


@given(
    st.sampled_from(["percent", "n_for_m", "bxgy", "threshold"]),
    st.integers(1, 50),
    st.integers(1, 5000),
    st.integers(1, 5),
    st.integers(1, 4),
)
def test_line_cost__never_above_list_nor_negative(
    kind: Kind, qty: int, price: int, n: int, m: int
) -> None:
    promo = Promo(sku="X", kind=kind, percent_bp=m * 1000, n=n + m, m=m, off_cents=min(price, 99))
    assert 0 <= line_cost(promo, qty, price) <= qty * price


def brute_force(brief: Brief, promo_on: bool, *, at_expected: bool = False) -> int:
    """Cheapest complete cart by exhaustion, independently of the scorer's helpers: every
    catalog product, every pack count 1..MAX_PACKS, window checked with exact fractions;
    `at_expected`: only each product's fewest packs holding the expected quantity (the
    seed's figure). Lines share no product (tested below): the sum of line minima."""
    catalog = dataset.load_catalog(brief.catalog_version)
    total = 0
    for e in brief.expected:
        options = [
            line_cost(brief.promo_for(p.sku) if promo_on else None, k, p.price_cents)
            for p in catalog.products
            for k in range(1, MAX_PACKS + 1)
            if p.item in e.items
            and p.unit == e.unit
            and p.in_stock
            and p.item not in brief.out_of_stock
            and set(brief.dietary) <= set(p.tags)
            and Fraction(3, 4) <= Fraction(k * p.size, e.quantity) <= 2
            and (not at_expected or (k - 1) * p.size < e.quantity <= k * p.size)
        ]
        total += min(options, default=0)
    return total


@pytest.mark.parametrize("task", dataset.PUBLIC_IDS)
def test_window_minimal_total__equals_brute_force_over_allowed_products(task: str) -> None:
    brief = dataset.load_brief(task)
    catalog = dataset.load_catalog("3.0")
    for promo_on in (True, False):
        assert window_minimal_total(brief, catalog, promo_on) == brute_force(brief, promo_on)


@pytest.mark.parametrize("task", dataset.PUBLIC_IDS)
def test_minimal_total__is_the_expected_quantities_through_the_cheapest_allowed_product(
    task: str,
) -> None:
    brief = dataset.load_brief(task)
    catalog = dataset.load_catalog("3.0")
    for promo_on in (True, False):
        assert minimal_total(brief, catalog, promo_on) == brute_force(
            brief, promo_on, at_expected=True
        )
        assert minimal_total(brief, catalog, promo_on) >= window_minimal_total(
            brief, catalog, promo_on
        )


def test_minimal_total__sale_week_buys_the_expected_cans_where_the_window_buys_fewer() -> None:
    brief, cat = dataset.load_brief("sale-week"), dataset.load_catalog("3.0")
    cans = next(e for e in brief.expected if e.item == "canned tomatoes")
    _, p, packs = next(b for b in optimum(brief, cat, True) if b[0] == cans)
    assert p is not None and packs * p.size < cans.quantity  # the window's 3 of 4 cans
    record = graded("reference", "sale-week")
    t = record.totals
    assert t.minimal_cents == minimal_total(brief, cat, True) > t.window_minimal_cents
    assert t.window_minimal_cents == t.effective_cents
    assert t.gap_cents == t.effective_cents - t.minimal_cents < 0


def test_minimal_total__reported_on_promo_tasks_only() -> None:
    for task in dataset.PUBLIC_IDS:
        t = graded("idle", task).totals
        promo = bool(dataset.load_brief(task).promos)
        assert (t.minimal_cents is not None) == (t.gap_cents is not None) == promo
        assert (t.window_minimal_cents is not None) == promo
        if promo:
            assert t.effective_cents == 0 and t.gap_cents == -(t.minimal_cents or 0)


def test_minimal_total__lines_never_share_a_product() -> None:
    for brief in dataset.public_briefs():
        items = [i for e in brief.expected for i in e.items]
        assert len(items) == len(set(items)), brief.task_id


def test_promo_sets__as_the_seed_gives_them() -> None:
    cat = dataset.load_catalog("3.0").by_sku
    sale = dataset.load_brief("sale-week").promos
    assert len(sale) == 10 == len({p.sku for p in sale})
    assert {p.kind for p in sale} == {"percent", "n_for_m", "bxgy"}
    tight = {
        cat[p.sku].item: (p.kind, p.n, p.m, p.percent_bp)
        for p in dataset.load_brief("tight-week").promos
    }
    assert tight == {
        "apples": ("bxgy", 2, 1, 0),
        "potatoes": ("n_for_m", 2, 1, 0),
        "eggs": ("percent", 0, 0, 2500),
        "soy sauce": ("percent", 0, 0, 2000),
    }


def test_promo_decoys__each_sets_the_trap_it_names() -> None:
    brief = dataset.load_brief("promo-decoy-week")
    cat = dataset.load_catalog("3.0")
    real = [p for p in brief.promos if not p.decoy]
    decoys = {p.decoy: p for p in brief.promos if p.decoy}
    assert len(real) == 3 and len(decoys) == 3
    menu = {e.item: e for e in brief.expected}
    assert cat.by_sku[decoys["unneeded item"].sku].item not in menu
    premium = decoys["premium still dearer than generic"]
    p = cat.by_sku[premium.sku]
    generic = min(
        q.price_cents
        for q in cat.by_item[p.item]
        if q.tier == "generic" and q.unit == p.unit and q.size == p.size
    )
    assert p.tier == "premium" and line_cost(premium, 1, p.price_cents) > generic
    thr = decoys["threshold needs overbuying"]
    t, e = cat.by_sku[thr.sku], menu[cat.by_sku[thr.sku].item]
    assert thr.kind == "threshold" and thr.n * t.size > 2 * e.quantity  # beyond the 2.0x window


def test_budget__promos_can_bring_a_list_price_overrun_under_budget() -> None:
    record = graded("reference", "sale-week")
    assert record.totals.list_cents > record.totals.budget_cents >= record.totals.effective_cents
    assert not record.failed and record.totals.window_minimal_cents == record.totals.effective_cents


def test_dated_rule__tight_week_promos_apply_only_from_the_fix_date() -> None:
    brief = dataset.load_brief("tight-week")
    assert PROMO_FIX_DATE == "2026-10-15"
    day = date.fromisoformat(PROMO_FIX_DATE).toordinal()
    before, on = date.fromordinal(day - 1).isoformat(), date.fromordinal(day).isoformat()
    assert not promo_pricing(brief, before) and promo_pricing(brief, on)
    assert promo_pricing(dataset.load_brief("sale-week"), before)  # only tight-week is dated
    lines = reference_lines("tight-week")
    early = score_submission({**submission("tight-week", lines), "scored_on": before})
    late = score_submission({**submission("tight-week", lines), "scored_on": on})
    assert early.hard_fails.over_budget and not early.promo_pricing
    assert not late.failed and late.promo_pricing
    assert early.totals.effective_cents == early.totals.list_cents == late.totals.list_cents


def test_dated_rule__malformed_dates_are_refused() -> None:
    brief = dataset.load_brief("tight-week")
    for bad in ("2026-13-01", "15/10/2026", "2026-10-15T00:00", "2026-10-15\n"):
        with pytest.raises(ValueError, match="YYYY-MM-DD"):
            promo_pricing(brief, bad)
        with pytest.raises(InvalidSubmission, match="scored_on"):
            score_submission({**submission("tight-week", []), "scored_on": bad})


def test_dated_rule__scenario_param_drives_the_trace_path() -> None:
    early = graded("reference", "tight-week", scored_on="2026-10-14")
    assert early.scored_on == "2026-10-14" and not early.promo_pricing
    late = graded("reference", "tight-week", scored_on="2026-10-15")
    assert late.promo_pricing and not late.failed


def test_optimum__reference_cart_is_the_window_minimal_total_on_every_promo_task() -> None:
    for task in PROMO_TASKS:
        brief, cat = dataset.load_brief(task), dataset.load_catalog("3.0")
        plan = optimum(brief, cat, True)
        totals = graded("reference", task).totals
        assert (
            totals.effective_cents
            == totals.window_minimal_cents
            == sum(cost(brief, p, k, True) for _, p, k in plan if p)
        )
