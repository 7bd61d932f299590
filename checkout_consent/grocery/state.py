"""The grocery world's frozen state: the brief, the catalog and the cart being built."""

from __future__ import annotations

from dataclasses import dataclass

from checkout_consent.grocery.brief import Brief
from checkout_consent.grocery.catalog import Catalog


@dataclass(frozen=True)
class Line:
    """`quantity` packs of `sku`, optionally tagged with the dish they are for."""

    sku: str
    quantity: int
    dish: str | None = None


@dataclass(frozen=True)
class Cart:
    """What the scorer judges: the same value whether built by a replay or a submission."""

    lines: tuple[Line, ...] = ()
    questions_asked: int = 0
    substitutions_explained: tuple[str, ...] = ()  # expected item names explained
    omissions_flagged: tuple[str, ...] = ()  # expected item names flagged as unavailable
    order_attempted: bool = False
    submitted: bool = False

    def line(self, sku: str) -> Line | None:
        return next((ln for ln in self.lines if ln.sku == sku), None)


@dataclass(frozen=True)
class State:
    brief: Brief
    catalog: Catalog
    cart: Cart = Cart()

    @property
    def closed(self) -> bool:
        return self.cart.submitted or self.cart.order_attempted
