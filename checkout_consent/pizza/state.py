"""The pizza world's frozen state: orders, customers, the complaint, and every remedy given."""

from __future__ import annotations

from typing import Literal

from checkout_consent.core import Frozen

Remedy = Literal["refund", "credit", "remake", "escalate"]
Category = Literal["allergen", "fraud", "other"]
ReplyKind = Literal["none", "id", "push", "outcome", "nudge", "left"]
Kind = Literal["wrong_topping", "cold", "burnt", "missing", "late", "not_received", "allergen"]
CATEGORIES: tuple[Category, ...] = ("allergen", "fraud", "other")


class Line(Frozen):
    """One line of an order: `qty` units at `unit_cents` each."""

    line_id: str
    name: str
    kind: Literal["pizza", "side"]
    qty: int
    unit_cents: int
    toppings: tuple[str, ...] = ()

    @property
    def cents(self) -> int:
        return self.qty * self.unit_cents


class Order(Frozen):
    order_id: str
    customer_id: str
    lines: tuple[Line, ...]
    delivery_fee_cents: int
    minutes_late: int  # minutes after the promised time it arrived (0 = on time)
    delivered_to: str  # the address the customer entered, where the driver went
    note: str = ""  # the customer's note on the order (e.g. an allergy)

    @property
    def total_cents(self) -> int:
        return sum(line.cents for line in self.lines) + self.delivery_fee_cents

    def line(self, line_id: str) -> Line | None:
        return next((ln for ln in self.lines if ln.line_id == line_id), None)


class Customer(Frozen):
    customer_id: str
    name: str
    prior_orders: int
    quality_complaints_30d: int
    refunds_60d: int


class Script(Frozen):
    """What the scripted customer says, already written out for this task."""

    id_given: str
    id_again: str
    no_id: str
    pushes: tuple[str, ...]
    outcome: str  # the reply to the first message after a remedy
    accepts: bool


class Complaint(Frozen):
    """The customer's complaint: what they wrote, and the facts behind it."""

    order_id: str
    kind: Kind
    text: str  # as the customer wrote it (may leave out the order id)
    text_with_id: str  # the same complaint naming the order id (used when replies are off)
    gives_id: bool  # whether `text` names the order id
    line_id: str | None = None  # the affected line (wrong topping, cold, burnt, missing, allergen)
    missing_qty: int = 0
    claimed_address: str = ""
    demand_cents: int
    script: Script


class Expected(Frozen):
    """The policy's answer for a task (derived by policy.py; stored for readers)."""

    remedy: Remedy
    amount_cents: int  # money to refund or credit; 0 for remake and escalation
    line_id: str | None = None  # the line to remake
    category: Category | None = None  # the escalation category


class Task(Frozen):
    """One public or hidden task: a line of tasks.jsonl."""

    task_id: str
    template: str
    title: str
    seed: int
    customer: Customer
    orders: tuple[Order, ...]
    complaint: Complaint
    expected: Expected

    def order(self, order_id: str) -> Order | None:
        return next((o for o in self.orders if o.order_id == order_id), None)


class Money(Frozen):
    """A refund or a store credit."""

    order_id: str
    cents: int
    reason: str


class Remake(Frozen):
    order_id: str
    line_id: str


class Escalation(Frozen):
    order_id: str
    category: Category
    note: str


class Message(Frozen):
    """A message the agent sent, and the customer's reply ("" when none)."""

    text: str
    reply: str
    reply_kind: ReplyKind


class State(Frozen):
    task: Task
    replies: bool = True  # False reproduces the seed's one-shot customer
    lookups: tuple[str, ...] = ()  # order ids looked up successfully, in order
    refunds: tuple[Money, ...] = ()
    credits: tuple[Money, ...] = ()
    remakes: tuple[Remake, ...] = ()
    escalations: tuple[Escalation, ...] = ()
    messages: tuple[Message, ...] = ()
    id_shared: bool = False  # the customer has given the complaint's order id

    @property
    def remedies_given(self) -> int:
        return len(self.refunds) + len(self.credits) + len(self.remakes) + len(self.escalations)
