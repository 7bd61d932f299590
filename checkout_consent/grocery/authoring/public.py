"""The eleven public briefs' budgets (the optimum times a slack: README "Choices where the
seed is silent"); `checkout-consent grocery build public` writes them into the briefs."""

from __future__ import annotations

from checkout_consent.grocery.brief import Brief
from checkout_consent.grocery.catalog import Catalog
from checkout_consent.grocery.grader import optimum, window_minimal_total

HALFWAY = None  # the slack of a brief budgeted between its promo and list-price optimum
SLACK: dict[str, float | None] = {
    "normal-week": 1.5,
    "budget-week": 1.06,
    "pantry-first-week": 1.4,
    "leftover-week": 1.4,
    "party-week": 1.3,
    "out-of-stock-week": 1.4,
    "sale-week": 1.1,
    "tight-week": HALFWAY,
    "size-week": 1.3,
    "oos-hard-week": 1.4,
    "promo-decoy-week": 1.2,
}


def budgeted(brief: Brief, catalog: Catalog) -> Brief:
    """`brief` with the budget its slack gives over its optimum in `catalog`."""
    best = window_minimal_total(brief, catalog, bool(brief.promos))
    slack = SLACK[brief.task_id]
    if slack is HALFWAY:
        at_list = sum(k * p.price_cents for _, p, k in optimum(brief, catalog, True) if p)
        budget = (best + at_list) // 2 // 100 * 100
    else:
        budget = -(-int(best * slack) // 100) * 100
    return brief.model_copy(update={"budget_cents": budget})
