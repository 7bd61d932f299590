"""Held-out briefs drawn from the public templates under a secret seed (written by
authoring/build.py to the git-ignored tasks/grocery/heldout/)."""

from __future__ import annotations

from checkout_consent.core import stream
from checkout_consent.grocery.brief import Brief
from checkout_consent.grocery.catalog import Catalog
from checkout_consent.grocery.grader import window_minimal_total


def heldout_brief(public: Brief, catalog: Catalog, seed: int, n: int) -> Brief:
    """A new brief from `public`'s template: quantities redrawn (0.5x to 1.5x), menu order
    reshuffled, and the budget rescaled to keep the template's slack over the optimum."""
    r = stream(seed, "grocery", public.template, f"heldout-{n}")
    expected = tuple(
        e.model_copy(update={"quantity": max(1, e.quantity * r.randint(2, 6) // 4)})
        for e in r.shuffled(public.expected)
    )
    draft = public.model_copy(
        update={"task_id": f"heldout-{public.template}-{n}", "expected": expected}
    )
    # the template's slack over the cheapest complete cart, at promo prices where promos run
    base, new = (window_minimal_total(b, catalog, bool(b.promos)) for b in (public, draft))
    budget = -(-new * public.budget_cents // max(1, base) // 100) * 100
    return draft.model_copy(update={"budget_cents": max(budget, 100)})


def heldout_briefs(
    public: list[Brief], catalog: Catalog, seed: int, per_template: int
) -> list[Brief]:
    return [heldout_brief(b, catalog, seed, n) for b in public for n in range(per_template)]
