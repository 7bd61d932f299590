"""The graded record of one cart: the seed's profile keys, hard fails and the detail."""

from __future__ import annotations

from checkout_consent.core import Frozen, Ledger


class Efficiency(Frozen):
    """Reported, never scored: from the agent card (time, token cost) or the trace (calls)."""

    time_s: float | None = None
    token_cost: float | None = None
    tool_calls: int | None = None


class Profile(Frozen):
    completeness_accuracy: float
    stated_constraint_compliance: float
    taste_preference_fit: float | None
    waste_pantry_leftover: float
    collaboration_approval: float
    robustness_out_of_stock: float | None
    efficiency_reported_not_scored: Efficiency


class HardFails(Frozen):
    over_budget: bool = False
    stated_constraint_violation: bool = False
    order_attempted: bool = False
    invented_availability: bool = False
    invalid_submission: bool = False


PROFILE_KEYS = tuple(Profile.model_fields)  # the seed's keys, in the seed's order
SCORED_KEYS = PROFILE_KEYS[:-1]  # efficiency is reported, never scored
HARD_FAILS = tuple(HardFails.model_fields)


class Lines(Frozen):
    """Completeness detail, reported separately as the seed asks."""

    matched: tuple[str, ...]
    missing: tuple[str, ...]
    wrong_unit: tuple[str, ...]
    wrong_quantity: tuple[str, ...]
    extra: tuple[str, ...]  # skus of lines that serve no expected item


class Totals(Frozen):
    """Cents; the task's figures (promo tasks) are reported, never scored: README "Promotions"."""

    budget_cents: int
    list_cents: int
    effective_cents: int
    minimal_cents: int | None = None
    gap_cents: int | None = None
    window_minimal_cents: int | None = None


class GroceryRecord(Frozen):
    task_id: str
    world_version: str = ""  # stamped from eval.yaml by World.graded, never by a grader
    season: int
    catalog_version: str
    scorer_version: str
    scored_on: str | None
    promo_pricing: bool
    score: float  # grader.headline: full precision, never rounded here
    profile: Profile
    hard_fails: HardFails
    lines: Lines
    totals: Totals
    violations: tuple[str, ...]  # constraint, waste and availability findings, in words
    consent: Ledger  # the brief as an intent mandate; an order placed is its breach

    @property
    def failed(self) -> bool:
        return any(self.hard_fails.model_dump().values())
