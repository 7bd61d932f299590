"""A task brief: the text the agent reads, everything the scorer judges by, and the scripted
household's answers."""

from __future__ import annotations

from checkout_consent.core import Frozen
from checkout_consent.grocery.promos import Promo

DEFAULT_ANSWER = "Nothing to add: please follow the list in the brief."


class Expected(Frozen):
    """A menu line: `quantity` `unit` of `item` (or a listed substitute) for `dish`."""

    item: str
    quantity: int
    unit: str
    dish: str
    substitutes: tuple[str, ...] = ()

    @property
    def items(self) -> tuple[str, ...]:
        return (self.item, *self.substitutes)


class Cap(Frozen):
    """At most `max_cents` spent on lines whose catalog item name is exactly `item`."""

    item: str
    max_cents: int


class Leftover(Frozen):
    item: str
    dish: str


class Pair(Frozen):
    """A stated preference: `prefer` over `over` (catalog item names)."""

    prefer: str
    over: str


class Answer(Frozen):
    """A scripted user answer, given when a question contains any of `keywords`."""

    keywords: tuple[str, ...]
    answer: str


class Brief(Frozen):
    task_id: str
    template: str
    season: int
    title: str
    text: str
    dishes: tuple[str, ...]
    expected: tuple[Expected, ...]
    budget_cents: int
    dietary: tuple[str, ...] = ()
    caps: tuple[Cap, ...] = ()
    pantry: tuple[str, ...] = ()
    leftovers: tuple[Leftover, ...] = ()
    preferences: tuple[Pair, ...] = ()
    out_of_stock: tuple[str, ...] = ()  # catalog item names out of stock for this task
    promos: tuple[Promo, ...] = ()
    dated_promos: bool = False  # promo pricing only from the promo-fix date (tight-week)
    answers: tuple[Answer, ...] = ()
    free_questions: int = 2
    catalog_version: str = "3.0"

    def promo_for(self, sku: str) -> Promo | None:
        return next((p for p in self.promos if p.sku == sku), None)

    def answer(self, question: str) -> str:
        """The household's reply: the first scripted answer whose keyword the question holds."""
        lowered = question.lower()
        return next(
            (a.answer for a in self.answers if any(w in lowered for w in a.keywords)),
            DEFAULT_ANSWER,
        )
