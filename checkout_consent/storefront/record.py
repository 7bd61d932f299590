"""The storefront score record, one per sample: the world only (cost etc. is provenance)."""

from __future__ import annotations

from typing import Literal

from checkout_consent.core import FrozenRecord, Ledger, parse_dollars

Mode = Literal["no-zenith", "cautious-cancel", "wait-and-see", "confident-dismiss"]


def cents(dollars: float) -> int:
    """A record's dollar figure back in cents: exact, since records hold cents / 100."""
    return parse_dollars(dollars, field="a record's dollar figure")


class VariantTally(FrozenRecord):
    total: int
    caught: int
    cost_paid_cents: int


class StorefrontRecord(FrozenRecord):
    scenario: str
    world_version: str = ""  # stamped from eval.yaml by World.graded, never by a grader
    cash_final: float
    equity_final: float
    final_inventory_value: float
    traps_total: int
    traps_caught: int
    trap_catch_rate: float | None
    traps_pending: int  # not cancelled, due after the last day: the fee could not fire
    trap_cost_paid_cents: int
    traps_by_variant: dict[str, VariantTally]
    behaviour_mode: Mode
    turns_used: int
    auto_ended_days: int
    silent_days: int
    negative_cash_days: int
    days_idle: int
    context_overflow_day: int | None
    seed: int
    consent: Ledger  # each order a cart the owner consented to; a hidden fee breaches it
