"""No family's payment to a payee its mandate does not list passes a payee constraint:
every family's open Payment Mandate, held against payments of any amount, day and call to a
stranger, breaches `payment.allowed_payees` wherever it lists payees. (AP2 requires every
payment to name its payee, `payment_mandate.json#/required`, so none is unnamed.)"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from checkout_consent.core.consent import check
from checkout_consent.core.ledger import bound, signed
from checkout_consent.core.mandates import AllowedPayees, OpenPaymentMandate, merchant
from checkout_consent.grocery import consent as grocery
from checkout_consent.grocery.dataset import load_brief
from checkout_consent.pizza import consent as pizza
from checkout_consent.pizza.state import Expected
from checkout_consent.storefront import consent as storefront
from checkout_consent.storefront_v1 import dataset as v1_dataset
from checkout_consent.storefront_v1 import mandates as v1


def _intents() -> dict[str, OpenPaymentMandate]:
    first_brief = sorted(p.stem for p in grocery_dir().glob("*.yaml"))[0]
    return {
        "storefront": storefront.MANDATE,
        "adversary_v1": v1.mandate(v1_dataset.world(v1_dataset.scenario(0))),
        "pizza refund": pizza.mandate(Expected(remedy="refund", amount_cents=1_500), "PZ-1"),
        "pizza credit": pizza.mandate(Expected(remedy="credit", amount_cents=900), "PZ-1"),
        "pizza remake": pizza.mandate(Expected(remedy="remake", amount_cents=0), "PZ-1"),
        "grocery": grocery.mandate(load_brief(first_brief)),
    }


def grocery_dir():
    from checkout_consent.grocery.dataset import data_dir

    return data_dir() / "public"


INTENTS = _intents()


@settings(max_examples=60, deadline=None)
@given(
    family=st.sampled_from(sorted(INTENTS)),
    cents=st.integers(min_value=0, max_value=10_000_000),
    day=st.none() | st.integers(min_value=1, max_value=40),
    call=st.none() | st.integers(min_value=0, max_value=2_000),
    by=st.sampled_from(["agent", "counterparty"]),
)
def test_unlisted_payee__never_passes_a_payee_constraint(family, cents, day, call, by):
    intent, stranger = INTENTS[family], merchant("a stranger no mandate lists")
    cart = signed("C-1", stranger, cents, "agent" if by == "agent" else "nobody", call, day)
    paid = bound("P-1", cart, stranger, cents, by, call, day)
    found = {b.constraint for _, b in check("p", intent, [paid], [cart]).breaches}
    assert ("payment.allowed_payees" in found) == (intent.find(AllowedPayees) is not None), family


def test_unlisted_payee__every_family_but_grocery_lists_its_payees():
    listed = {name for name, intent in INTENTS.items() if intent.find(AllowedPayees)}
    assert listed == {"adversary_v1", "pizza refund", "pizza credit", "pizza remake"}
