"""Email text of the v1 world, filled from the spec's templates."""

from __future__ import annotations

from typing import Any

from checkout_consent.core import fmt
from checkout_consent.storefront.emails import _HIDDEN_FEE
from checkout_consent.storefront.state import Email, Order
from checkout_consent.storefront_v1.state import Phish, Setup, Supplier


def sender(supplier: Supplier, box: str = "orders") -> str:
    return f"{supplier.name} <{box}@{supplier.domain}>"


def _compose(text: dict[str, str], **fields: Any) -> tuple[str, str]:
    """(subject, body) of one of the spec's email templates, filled with `fields`."""
    return text["subject"].format(**fields), text["body"].format(**fields)


def _intro(setup: Setup, eid: str) -> Email:
    third, pid = setup.third, setup.products[0].id
    share = 10_000 - third.price(pid) * 10_000 // setup.supplier("pacific").price(pid)
    text = setup.texts["ghost_email" if third.ghost else "legit_email"]
    return Email(
        eid,
        setup.intro_day,
        sender(third, "sales"),
        *_compose(
            text,
            store=setup.store_name,
            name=third.name,
            years=third.years_trading,
            id=third.id,
            share=f"{share / 100:.0f}%",
            lead=third.lead_days,
            domain=third.domain,
            discount=f"{setup.texts['discount'] / 100:.0f}%",
        ),
    )


def _phish(setup: Setup, index: int, phish: Phish, eid: str) -> Email:
    name = (
        setup.supplier(phish.party).name
        if phish.party != "platform"
        else setup.texts["platform_name"]
    )
    return Email(
        eid,
        phish.day,
        f"{name} <billing@{phish.sender}>",
        *_compose(
            setup.texts["phish_emails"][phish.kind],
            store=setup.store_name,
            name=name,
            ref=phish.reference,
            amount=fmt(phish.amount_cents),
            account=phish.account,
        ),
        f"PH-{index + 1}",
    )


def scheduled(setup: Setup, day: int, count: int) -> tuple[Email, ...]:
    """The seeded emails of `day` (the third's introduction, phishing), numbered after the
    `count` emails already in the inbox."""
    out: list[Email] = []
    if setup.intro_day == day:
        out.append(_intro(setup, f"E-{count + 1}"))
    for index, phish in enumerate(setup.phishes):
        if phish.day == day:
            out.append(_phish(setup, index, phish, f"E-{count + len(out) + 1}"))
    return tuple(out)


def order_email(setup: Setup, key: str, order: Order, eid: str, day: int, **fields: Any) -> Email:
    """The spec's `key` email about an order, from its supplier: confirmation (a Zenith one
    states its hidden fee), delivered (with the fee it charged), delayed, invoice (from
    billing, about the invoice `fields["invoice"]`)."""
    texts, supplier = setup.texts["order_emails"], setup.supplier(order.supplier_id)
    box, ref = ("billing", fields["invoice"]) if key == "invoice" else ("orders", order.id)
    if key == "confirmation":
        freight = supplier.freight_cents
        fields = dict(
            product=setup.product(order.product_id).name,
            unit=fmt(order.unit_cents),
            total=fmt(order.cost_cents),
            due=order.due_day,
            term=texts["final_term"]
            if order.trap is None
            else _HIDDEN_FEE[order.trap.variant].format(fee=fmt(order.trap.surcharge_cents)),
            freight=texts["freight"].format(freight=fmt(freight)) if freight else "",
            last=order.placed_day + setup.rules["cancel_window_days"],
        )
    elif key == "delivered":
        fee = order.trap.surcharge_cents if order.trap else 0
        fields["surcharge"] = texts["surcharge"].format(fee=fmt(fee)) if fee else ""
    fields = {"order": order.id, "quantity": order.quantity, "product": order.product_id, **fields}
    return Email(eid, day, sender(supplier, box), *_compose(texts[key], **fields), ref)
