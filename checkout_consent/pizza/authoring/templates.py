"""tasks/pizza/templates.yaml as typed, frozen data (`dataset` reads the file)."""

from __future__ import annotations

from checkout_consent.core import Frozen
from checkout_consent.pizza.state import Remedy


class PizzaItem(Frozen):
    name: str
    toppings: tuple[str, ...]
    premium_cents: int


class SideItem(Frozen):
    name: str
    cents: int


class Allergen(Frozen):
    note: str
    found: str


class CustomerLines(Frozen):
    id_given: str
    id_again: str
    no_id: str
    left: str | None = None


class Template(Frozen):
    title: str
    remedy: Remedy
    complaint: tuple[str, ...]
    pushes: tuple[str, ...]
    accept: str
    reject: str
    accept_rate: tuple[int, int]  # accepts in `num` of `den` tasks, drawn per task


class Templates(Frozen):
    """The whole templates file: menu, names, customer lines and the eight templates."""

    version: int
    delivery_fee_cents: int
    sizes: dict[str, int]
    pizzas: tuple[PizzaItem, ...]
    sides: tuple[SideItem, ...]
    wrong_toppings: tuple[str, ...]
    allergens: tuple[Allergen, ...]
    first_names: tuple[str, ...]
    last_names: tuple[str, ...]
    streets: tuple[str, ...]
    customer: CustomerLines
    templates: dict[str, Template]
