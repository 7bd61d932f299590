"""Authoring: templates + seed -> tasks (the public and every hidden split). Pure; this is
where the family draws its randomness."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from checkout_consent.core import Stream, fmt, stream
from checkout_consent.pizza.authoring.templates import Template, Templates
from checkout_consent.pizza.policy import expected_remedy
from checkout_consent.pizza.state import (
    Complaint,
    Customer,
    Expected,
    Kind,
    Line,
    Order,
    Script,
    Task,
)

PUBLIC_SEED = 20261015  # the public split's seed (tasks/pizza/tasks.jsonl); Scenario.seed
PER_TEMPLATE = 5


class Facts(NamedTuple):
    """What a template makes true of the complaint order and the customer."""

    kind: Kind
    line_id: str | None
    missing_qty: int
    order_update: dict[str, Any]
    customer_update: dict[str, Any]
    words: dict[str, str]  # extra text placeholders


def _lines(r: Stream, templates: Templates) -> tuple[Line, ...]:
    lines: list[Line] = []
    for _ in range(r.randint(1, 3)):
        pizza, size = r.choice(templates.pizzas), r.choice(sorted(templates.sizes))
        lines.append(
            Line(
                line_id=f"L{len(lines) + 1}",
                name=f"{size} {pizza.name}",
                kind="pizza",
                qty=r.randint(1, 2),
                toppings=pizza.toppings,
                unit_cents=templates.sizes[size] + pizza.premium_cents,
            )
        )
    for _ in range(r.randint(0, 2)):
        side = r.choice(templates.sides)
        lines.append(
            Line(
                line_id=f"L{len(lines) + 1}",
                name=side.name,
                kind="side",
                qty=r.randint(1, 2),
                unit_cents=side.cents,
            )
        )
    return tuple(lines)


def _address(r: Stream, templates: Templates) -> str:
    return f"{r.randint(2, 98)} {r.choice(templates.streets)}"


def _order(r: Stream, templates: Templates, customer_id: str, taken: set[str]) -> Order:
    order_id = f"PZ-{r.randint(100000, 999999)}"
    while order_id in taken:
        order_id = f"PZ-{r.randint(100000, 999999)}"
    taken.add(order_id)
    return Order(
        order_id=order_id,
        customer_id=customer_id,
        lines=_lines(r, templates),
        delivery_fee_cents=templates.delivery_fee_cents,
        minutes_late=r.randint(0, 15),
        delivered_to=_address(r, templates),
    )


def _pizza_line(r: Stream, order: Order) -> Line:
    return r.choice([ln for ln in order.lines if ln.kind == "pizza"])


def _quality(r: Stream, templates: Templates, order: Order, kind: Kind) -> Facts:
    line = _pizza_line(r, order)
    got = r.choice([t for t in templates.wrong_toppings if t not in line.toppings])
    defect = {
        "cold": "stone cold",
        "burnt": "burnt black underneath",
        "wrong_topping": f"with {got} I never asked for",
    }.get(kind, "")
    return Facts(kind, line.line_id, 0, {}, {}, {"item": line.name, "got": got, "defect": defect})


def _missing(r: Stream, order: Order) -> Facts:
    line = r.choice(order.lines)
    qty = r.randint(1, line.qty)
    what = line.name if line.qty == 1 else f"{qty} x {line.name}"
    if qty < line.qty:
        what = f"{qty} of the {line.qty} x {line.name}"
    return Facts("missing", line.line_id, qty, {}, {}, {"missing": what})


def _wrong_address(r: Stream, order: Order) -> Facts:
    number, street = order.delivered_to.split(" ", 1)
    claimed = number
    while claimed == number:
        claimed = str(r.randint(2, 98))
    address = f"{claimed} {street}"
    words = {"address": address, "entered": order.delivered_to}
    return Facts("not_received", None, 0, {"minutes_late": r.randint(0, 10)}, {}, words)


def _allergen(r: Stream, templates: Templates, order: Order) -> Facts:
    line, allergen = _pizza_line(r, order), r.choice(templates.allergens)
    words = {"item": line.name, "allergen": allergen.found}
    return Facts("allergen", line.line_id, 0, {"note": allergen.note}, {}, words)


def _facts(name: str, r: Stream, templates: Templates, order: Order) -> Facts:
    builders: dict[str, Callable[[], Facts]] = {
        "wrong_topping": lambda: _quality(r, templates, order, "wrong_topping"),
        "cold_pizza": lambda: _quality(r, templates, order, "cold"),
        "missing_item": lambda: _missing(r, order),
        "late_delivery": lambda: Facts(
            "late", None, 0, {"minutes_late": r.randint(30, 95)}, {}, {}
        ),
        "wrong_address": lambda: _wrong_address(r, order),
        "allergen": lambda: _allergen(r, templates, order),
        "angry_repeat": lambda: _angry(r, templates, order),
        "fraud_pattern": lambda: _missing(r, order)._replace(
            customer_update={"refunds_60d": r.randint(3, 6)}
        ),
    }
    return builders[name]()


def _angry(r: Stream, templates: Templates, order: Order) -> Facts:
    kind: Kind = r.choice(("cold", "burnt", "wrong_topping"))
    facts = _quality(r, templates, order, kind)
    update = {"quality_complaints_30d": r.randint(1, 2), "prior_orders": r.randint(20, 80)}
    return facts._replace(customer_update=update)


def _customer(r: Stream, templates: Templates) -> Customer:
    name = f"{r.choice(templates.first_names)} {r.choice(templates.last_names)}"
    return Customer(
        customer_id=f"C-{r.randint(10000, 99999)}",
        name=name,
        prior_orders=r.randint(1, 40),
        quality_complaints_30d=0,
        refunds_60d=r.randint(0, 1),
    )


def _script(templates: Templates, tpl: Template, words: dict[str, str], accepts: bool) -> Script:
    lines = templates.customer
    return Script(
        id_given=lines.id_given.format(**words),
        id_again=lines.id_again.format(**words),
        no_id=lines.no_id.format(**words),
        pushes=tuple(p.format(**words) for p in tpl.pushes),
        outcome=(tpl.accept if accepts else tpl.reject).format(**words),
        accepts=accepts,
    )


def make_task(templates: Templates, seed: int, name: str, task_id: str) -> Task:
    """One task of template `name`, drawn from its own stream of `seed`."""
    r, tpl = stream(seed, "pizza", task_id, "task"), templates.templates[name]
    customer, taken = _customer(r, templates), set[str]()
    orders = [_order(r, templates, customer.customer_id, taken) for _ in range(r.randint(2, 3))]
    facts = _facts(name, r, templates, orders[0])
    order = orders[0].model_copy(update=facts.order_update)
    customer = customer.model_copy(update=facts.customer_update)
    words = {
        "first": customer.name.split()[0],
        "order_id": order.order_id,
        "item": "",
        "demand": fmt(order.total_cents),
        "minutes": str(order.minutes_late),
        **facts.words,
    }
    gives_id, accepts = r.below(5) >= 2, r.below(tpl.accept_rate[1]) < tpl.accept_rate[0]
    text = r.choice(tpl.complaint)
    complaint = Complaint(
        order_id=order.order_id,
        kind=facts.kind,
        gives_id=gives_id,
        text=text.format(**words, order_ref=f"order {order.order_id}" if gives_id else "my order"),
        text_with_id=text.format(**words, order_ref=f"order {order.order_id}"),
        line_id=facts.line_id,
        missing_qty=facts.missing_qty,
        demand_cents=order.total_cents,
        claimed_address=words.get("address", ""),
        script=_script(templates, tpl, words, accepts),
    )
    draft = Task(
        task_id=task_id,
        template=name,
        title=tpl.title,
        seed=seed,
        customer=customer,
        orders=(order, *orders[1:]),
        complaint=complaint,
        expected=Expected(remedy=tpl.remedy, amount_cents=0),
    )
    return _with_expected(draft, tpl)


def _with_expected(draft: Task, tpl: Template) -> Task:
    expected = expected_remedy(draft)
    if expected.remedy != tpl.remedy:
        raise ValueError(f"{draft.task_id}: policy says {expected.remedy}, template {tpl.remedy}")
    return draft.model_copy(update={"expected": expected})


def task_id_for(name: str, n: int, seed: int) -> str:
    base = f"{name.replace('_', '-')}-{n}"
    return base if seed == PUBLIC_SEED else f"{base}-s{seed}"


def generate(templates: Templates, seed: int, per_template: int = PER_TEMPLATE) -> list[Task]:
    """Every template `per_template` times, in template order."""
    return [
        make_task(templates, seed, name, task_id_for(name, n, seed))
        for name in templates.templates
        for n in range(1, per_template + 1)
    ]
