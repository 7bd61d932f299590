"""The headline: adding a line the brief did not ask for never raises it, each violation
lowers it, and it is kept at full precision (README "Headline")."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from checkout_consent.grocery import dataset
from checkout_consent.grocery.brief import Brief
from checkout_consent.grocery.catalog import Product
from checkout_consent.grocery.grader import out_of_stock, score
from checkout_consent.grocery.record import Efficiency, GroceryRecord
from checkout_consent.grocery.state import Cart, Line
from tests.grocery.helpers import reference_lines, reference_submission

CATALOG = dataset.load_catalog("3.0")


def known(brief: Brief) -> set[str]:
    return {i for e in brief.expected for i in e.items}


def unrequested(brief: Brief) -> list[Product]:
    """Products of items the brief does not ask for (neither a list item nor a substitute)."""
    return [p for p in CATALOG.products if p.item not in known(brief)]


def violating(brief: Brief) -> list[Product]:
    """Unrequested products that make a waste or taste finding: pantry items, leftover
    items (bought outside their dish) and the dispreferred side of a preference pair."""
    items = (
        set(brief.pantry)
        | {lo.item for lo in brief.leftovers}
        | {pair.over for pair in brief.preferences}
    )
    return [p for p in unrequested(brief) if p.item in items]


def graded(brief: Brief, cart: Cart) -> GroceryRecord:
    return score(
        brief, CATALOG, cart, scored_on=None, efficiency=Efficiency(), task_catalog=CATALOG
    )


def plus(cart: Cart, *lines: Line) -> Cart:
    return Cart(
        lines=cart.lines + lines,
        questions_asked=cart.questions_asked,
        substitutions_explained=cart.substitutions_explained,
        omissions_flagged=cart.omissions_flagged,
        submitted=True,
    )


def reference_cart(task: str, questions: int = 0) -> Cart:
    data = reference_submission(task)["cart"]
    return Cart(
        lines=tuple(Line(ln["sku"], ln["quantity"], ln.get("dish")) for ln in data["lines"]),
        questions_asked=questions,
        substitutions_explained=tuple(data["substitutions_explained"]),
        omissions_flagged=tuple(data["omissions_flagged"]),
        submitted=True,
    )


@st.composite
def carts(draw: st.DrawFn) -> tuple[Brief, Cart, list[Product]]:
    """A public task, a cart of some of its reference lines (packs redrawn), some unrequested
    lines and questions, and the unrequested products to add from (violating ones first)."""
    task = draw(st.sampled_from(dataset.PUBLIC_IDS))
    brief = dataset.load_brief(task)
    ref = reference_lines(task)
    kept = draw(st.lists(st.sampled_from(ref), unique=True, max_size=len(ref))) if ref else []
    lines = [Line(sku, draw(st.integers(1, 2 * packs)), dish) for sku, packs, dish in kept]
    pool = violating(brief) + unrequested(brief)
    dishes = st.sampled_from([None, *brief.dishes])
    extras = draw(st.lists(st.tuples(st.sampled_from(pool), st.integers(1, 3), dishes), max_size=4))
    lines += [Line(p.sku, k, d) for p, k, d in extras]
    cart = Cart(
        lines=tuple(lines),
        questions_asked=draw(st.integers(0, 5)),
        substitutions_explained=tuple(
            draw(st.lists(st.sampled_from(sorted(known(brief))), max_size=2, unique=True))
        ),
        submitted=True,
    )
    return brief, cart, pool


@settings(deadline=None)  # the suite profile's count; --hypothesis-profile=thorough: more
@given(carts(), st.data())
def test_headline__an_unrequested_line_never_raises_it(
    drawn: tuple[Brief, Cart, list[Product]], data: st.DataObject
) -> None:
    brief, cart, pool = drawn
    p = data.draw(st.sampled_from(pool))
    line = Line(
        p.sku, data.draw(st.integers(1, 3)), data.draw(st.sampled_from([None, *brief.dishes]))
    )
    before, after = graded(brief, cart), graded(brief, plus(cart, line))
    assert after.score <= before.score
    assert after.lines.extra[-1] == p.sku  # it is unrequested, as the grader sees it


@settings(deadline=None)  # the suite profile's count; --hypothesis-profile=thorough: more
@given(carts(), st.data())
def test_headline__a_violating_line_always_lowers_a_scoring_cart(
    drawn: tuple[Brief, Cart, list[Product]], data: st.DataObject
) -> None:
    brief, cart, _ = drawn
    bad = [p for p in violating(brief) if not out_of_stock(brief, p)]
    if not bad:
        return
    p = data.draw(st.sampled_from(bad))
    plan = {lo.item: lo.dish for lo in brief.leftovers}
    dish = next((d for d in brief.dishes if d != plan.get(p.item)), None)
    before, after = graded(brief, cart), graded(brief, plus(cart, Line(p.sku, 1, dish)))
    if before.score > 0:  # a cart buying nothing on the list scores 0, violation or not
        assert after.score < before.score


@pytest.mark.parametrize("task", dataset.PUBLIC_IDS)
def test_headline__every_violation_costs_the_reference_cart(task: str) -> None:
    """Each kind of finding the task allows, added to the clean reference cart, scores below
    it: never a tie with the clean cart."""
    brief = dataset.load_brief(task)
    clean = graded(brief, reference_cart(task))
    assert clean.violations == () and not clean.failed and clean.score > 0
    for item in {p.item for p in violating(brief) if not out_of_stock(brief, p)}:
        cheapest = min(
            (p for p in violating(brief) if p.item == item and not out_of_stock(brief, p)),
            key=lambda p: p.price_cents,
        )
        worse = graded(brief, plus(reference_cart(task), Line(cheapest.sku, 1)))
        assert worse.score < clean.score, item


@pytest.mark.slow
def test_headline__padding_cannot_dilute_a_pantry_violation() -> None:
    """The issue's case: a pantry item, then nine cheap unrelated lines; waste as a ratio
    over lines rises (reported, as the seed's key), the headline does not."""
    brief = dataset.load_brief("pantry-first-week")
    pantry = min(
        (p for p in violating(brief) if p.item in brief.pantry), key=lambda p: p.price_cents
    )
    one = plus(reference_cart("pantry-first-week"), Line(pantry.sku, 1))
    clean = [
        p
        for p in unrequested(brief)
        if p not in violating(brief)
        and not out_of_stock(brief, p)
        and set(brief.dietary) <= set(p.tags)
    ]
    cheap = sorted(
        {p.item: p for p in sorted(clean, key=lambda p: -p.price_cents)}.values(),
        key=lambda p: p.price_cents,
    )[:9]
    padded = plus(one, *(Line(p.sku, 1) for p in cheap))
    a, b = graded(brief, one), graded(brief, padded)
    assert not b.failed and len(b.lines.extra) == 10
    assert b.profile.waste_pantry_leftover > a.profile.waste_pantry_leftover
    assert b.score == a.score < graded(brief, reference_cart("pantry-first-week")).score


def test_headline__a_preferred_extra_cannot_lift_a_cart() -> None:
    """The issue's case: party-week, three questions asked, then an unrequested ice cream
    (the preferred side): the taste vote is reported, the headline stays."""
    brief = dataset.load_brief("party-week")
    base = reference_cart("party-week", questions=3)
    pair = brief.preferences[0]
    treat = min(
        (p for p in unrequested(brief) if p.item == pair.prefer and not out_of_stock(brief, p)),
        key=lambda p: p.price_cents,
    )
    a, b = graded(brief, base), graded(brief, plus(base, Line(treat.sku, 1)))
    assert a.profile.taste_preference_fit is None and b.profile.taste_preference_fit == 1.0
    assert not b.failed and b.score == a.score


def test_headline__full_precision_as_an_exact_fraction_would_give() -> None:
    """Recomputed from the record and brief with exact fractions (the README's formula):
    the stored score is the nearest float, not a rounded one."""
    brief = dataset.load_brief("party-week")
    cheapest = min(
        (p for p in violating(brief) if not out_of_stock(brief, p)), key=lambda p: p.price_cents
    )
    r = graded(brief, plus(reference_cart("party-week", questions=3), Line(cheapest.sku, 1)))
    n, prof = len(brief.expected), r.profile
    against = sum(
        1
        for sku in r.lines.extra
        for pair in brief.preferences
        if CATALOG.by_sku[sku].item == pair.over
    )
    wasted = sum(1 for v in r.violations if v.startswith(("pantry", "leftover")))
    terms = [
        Fraction(prof.collaboration_approval),
        Fraction(n, n + wasted),
        Fraction(n, n + against),
    ]
    want = Fraction(prof.completeness_accuracy) * sum(terms) / len(terms)
    assert against == 1 and abs(Fraction(r.score) - want) < Fraction(1, 10**15)
    assert round(r.score, 6) != r.score
