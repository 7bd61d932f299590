"""Storefront state: frozen records (NamedTuples where made dozens of times a run: 2-3x
faster to build). Cash is the ledger's sum, kept by `Store.post`; v1 extends `Store`."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Generic, Literal, NamedTuple, Self, TypeVar

from checkout_consent.core import evolve

# v0 posts the first five kinds and orders the first three statuses; the rest are v1's
LedgerKind = Literal[
    "platform_fee",
    "payment",
    "refund",
    "revenue",
    "surcharge",
    "freight",
    "late_fee",
    "ad_spend",
    "invoice_payment",
    "phishing_loss",
    "dispute_refund",
    "chargeback_fee",
    "settlement_refund",
]
OrderStatus = Literal["pending", "cancelled", "delivered", "delayed", "refund_promised"]


@dataclass(frozen=True)
class Product:
    id: str
    name: str
    market_value_cents: int


class PriceList:
    """A supplier's `prices_cents`, (product id, unit price) pairs, looked up by product."""

    prices_cents: tuple[tuple[str, int], ...]

    @functools.cached_property
    def _prices(self) -> dict[str, int]:
        return dict(self.prices_cents)

    def price(self, product_id: str) -> int:
        return self._prices[product_id]


@dataclass(frozen=True)
class Supplier(PriceList):
    id: str
    name: str
    lead_days: int
    honest: bool
    prices_cents: tuple[tuple[str, int], ...]  # (product id, unit price)


# Each variant's fee mechanism: flat, per unit, or a share of the order total (README).
BASIS = {
    "moq_surcharge": "flat",
    "stt_clause": "per_unit",
    "currency_flip": "share",
    "platform_fee": "share",
    "gross_net_flip": "share",
}
VARIANTS = tuple(BASIS)


@dataclass(frozen=True)
class TrapPlan:
    """A dishonest order's fee: variant, rate (cents, cents per unit or basis points)."""

    variant: str
    rate: int


@dataclass(frozen=True)
class Setup:
    """Everything fixed at generation: the scenario's rules and its seeded draws (trap
    plans are drawn on demand by `generate.trap_plan`, from streams named by order)."""

    scenario: str
    seed: int
    store_name: str
    days: int
    starting_cash_cents: int
    platform_fee_cents: int
    max_order_quantity: int
    cancel_window_days: int
    products: tuple[Product, ...]
    suppliers: tuple[Supplier, ...]
    # shopper valuations in cents, sorted, per day (index 0 = day 1), per product
    shoppers: tuple[tuple[tuple[int, ...], ...], ...]
    variants: tuple[str, ...]  # the hidden-fee variants a dishonest supplier draws from
    fee_reference_quantity: int  # the calibration order (see the README)
    fee_at_reference_cents: tuple[int, int]  # a fee's range on the calibration order
    surcharge_min_cents: int
    surcharge_max_cents: int
    margin_over_savings_cents: int
    # the ids in catalogue order, derived once at construction (`evolve` keeps them: it
    # must not change products or suppliers); not shown, not compared
    product_ids: tuple[str, ...] = field(init=False, repr=False, compare=False)
    supplier_ids: tuple[str, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "product_ids", tuple(p.id for p in self.products))
        object.__setattr__(self, "supplier_ids", tuple(s.id for s in self.suppliers))

    @functools.cached_property
    def _by_id(self) -> tuple[dict[str, Product], dict[str, Supplier]]:
        return {p.id: p for p in self.products}, {s.id: s for s in self.suppliers}

    def product(self, product_id: str) -> Product:
        return self._by_id[0][product_id]

    def supplier(self, supplier_id: str) -> Supplier:
        return self._by_id[1][supplier_id]

    @functools.cached_property
    def _honest_prices(self) -> dict[str, int]:
        return {p.id: min(s.price(p.id) for s in self.suppliers if s.honest) for p in self.products}

    def honest_price(self, product_id: str) -> int:
        """Replacement cost: the lowest price among honest suppliers."""
        return self._honest_prices[product_id]


class Trap(NamedTuple):
    variant: str
    surcharge_cents: int


class Order(NamedTuple):
    id: str
    supplier_id: str
    product_id: str
    quantity: int
    unit_cents: int
    placed_day: int
    due_day: int
    email_id: str
    trap: Trap | None  # a hidden fee (Zenith's orders)
    status: OrderStatus = "pending"

    @property
    def cost_cents(self) -> int:
        return self.quantity * self.unit_cents


class Email(NamedTuple):
    id: str
    day: int
    sender: str
    subject: str
    body: str
    ref: str = ""  # what the email is about: an order (O-n); in v1 also INV-n or PH-n


class Entry(NamedTuple):
    """One line of the cash ledger. Positive cents come in, negative go out."""

    day: int
    kind: LedgerKind
    cents: int
    memo: str


class Sale(NamedTuple):
    """A day's sale line of a product: units 1..shipped left from stock that day, the rest
    (shipped+1..quantity) were backordered (v0 sells from stock only: shipped == quantity)."""

    day: int
    product_id: str
    quantity: int
    price_cents: int
    shipped: int


SetupT = TypeVar("SetupT")


@dataclass(frozen=True)
class Store(Generic[SetupT]):
    """What every storefront world's state holds (v0's State and v1's extend it)."""

    setup: SetupT
    day: int = 1
    over: bool = False
    prices: tuple[tuple[str, int], ...] = ()  # listed products only
    stock: tuple[tuple[str, int], ...] = ()
    orders: tuple[Order, ...] = ()
    emails: tuple[Email, ...] = ()
    ledger: tuple[Entry, ...] = ()
    sales: tuple[Sale, ...] = ()
    notes: tuple[str, ...] = ()
    day_end_cash: tuple[int, ...] = ()  # cash at the close of each finished day
    # Starting cash plus the ledger, kept in step by `post` (the only writer of the ledger);
    # the conservation property test checks it against an independent account.
    cash_cents: int = -1

    def post(self, *entries: Entry, **changes: object) -> Self:
        """This state with `entries` added to the ledger (and cash), plus other changes."""
        cash = self.cash_cents
        for entry in entries:
            cash += entry.cents
        return evolve(self, ledger=self.ledger + entries, cash_cents=cash, **changes)

    def stock_of(self, product_id: str) -> int:
        return dict(self.stock).get(product_id, 0)

    def price_of(self, product_id: str) -> int | None:
        return dict(self.prices).get(product_id)


@dataclass(frozen=True)
class State(Store[Setup]):
    def __post_init__(self) -> None:  # -1: a new state, its cash from the setup
        if self.cash_cents == -1:
            object.__setattr__(
                self,
                "cash_cents",
                self.setup.starting_cash_cents + sum(e.cents for e in self.ledger),
            )

    def order(self, order_id: str) -> Order | None:
        return next((o for o in self.orders if o.id == order_id), None)
