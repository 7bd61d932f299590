"""Promotions: one rule per SKU, never stacked. Pure integer-cent arithmetic."""

from __future__ import annotations

from typing import Literal

from checkout_consent.core import Frozen, fmt, percent_of

Kind = Literal["percent", "n_for_m", "bxgy", "threshold"]


class Promo(Frozen):
    """A promotion on one SKU.

    percent: `percent_bp` basis points off each line. n_for_m: every `n` packs cost `m`.
    bxgy: buy `n` get `m` free (groups of n + m). threshold: `off_cents` off the line once it
    holds at least `n` packs. `decoy` names the trap a decoy promo sets (reporting only).
    """

    sku: str
    kind: Kind
    percent_bp: int = 0
    n: int = 0
    m: int = 0
    off_cents: int = 0
    decoy: str | None = None


def line_cost(promo: Promo | None, quantity: int, price_cents: int) -> int:
    """What `quantity` packs at `price_cents` cost under `promo` (None: list price)."""
    full = quantity * price_cents
    if promo is None:
        return full
    if promo.kind == "percent":
        return full - percent_of(full, promo.percent_bp)
    if promo.kind == "n_for_m":
        return (quantity // promo.n * promo.m + quantity % promo.n) * price_cents
    if promo.kind == "bxgy":
        return full - quantity // (promo.n + promo.m) * promo.m * price_cents
    return full - promo.off_cents if quantity >= promo.n else full


def badge(promo: Promo) -> str:
    """The sale badge the store shows."""
    if promo.kind == "percent":
        return f"SALE {promo.percent_bp / 100:g}% off"
    if promo.kind == "n_for_m":
        return f"SALE {promo.n} for the price of {promo.m}"
    if promo.kind == "bxgy":
        return f"SALE buy {promo.n} get {promo.m} free"
    return f"SALE {fmt(promo.off_cents)} off when you buy {promo.n} or more"
