"""Each store action: the happy path, each error, and the input state left untouched."""

from __future__ import annotations

import json
from typing import Any

import pytest

from checkout_consent.core.world import apply
from checkout_consent.grocery import initial
from checkout_consent.grocery.actions import ACTIONS, MAX_PACKS
from checkout_consent.grocery.state import State
from tests.grocery.helpers import scenario


def start(task: str = "sale-week") -> State:
    return initial(scenario(task))


def run(state: State, tool: str, **args: Any) -> tuple[State, str, bool]:
    step = apply(ACTIONS, state, tool, args)
    return step.state, step.observation, step.ok


def refused(state: State, tool: str, **args: Any) -> str:
    before = state.cart
    new, obs, ok = run(state, tool, **args)
    assert not ok and new is state and state.cart == before
    return obs


def test_search_catalog__returns_ranked_json_with_sale_badges() -> None:
    s = start()
    new, obs, ok = run(s, "search_catalog", query="bananas")
    rows = json.loads(obs)
    assert ok and new is s and rows[0]["sku"] == "G00008" and rows[0]["sale"] == "SALE 30% off"
    _, obs, _ = run(s, "search_catalog", query="cheddar", dietary="vegan")
    assert obs == "No products match."
    _, obs, _ = run(s, "search_catalog", query="milk", department="dairy", max_price=2.6)
    assert all(r["department"] == "dairy" for r in json.loads(obs))


@pytest.mark.parametrize(
    "args",
    [
        {"query": 7},
        {"query": "x" * 201},
        {"query": "a", "max_price": float("nan")},
        {"query": "a", "max_price": -1},
        {"query": "a", "department": None},
        {},
    ],
)
def test_search_catalog__bad_arguments_are_refused(args: dict[str, Any]) -> None:
    refused(start(), "search_catalog", **args)


def test_view_product__shows_stock_and_unknown_sku_is_refused() -> None:
    s = start("out-of-stock-week")
    _, obs, ok = run(s, "view_product", sku="g00006")
    assert ok and json.loads(obs)["stock"] == "out of stock"
    assert "no product" in refused(s, "view_product", sku="NOPE")
    refused(s, "view_product", sku=["G00006"])


def test_add_to_cart__adds_merges_and_tags_dish() -> None:
    s, obs, ok = run(start(), "add_to_cart", sku="G00008", quantity=2, dish="smoothies")
    s, _, _ = run(s, "add_to_cart", sku="G00008", quantity=1.0)
    assert ok and s.cart.lines[0].quantity == 3 and s.cart.lines[0].dish == "smoothies"


@pytest.mark.parametrize(
    "qty", [0, -1, 1.5, float("nan"), float("inf"), "2", True, 10**30, MAX_PACKS + 1, None]
)
def test_add_to_cart__bad_quantity_is_refused(qty: object) -> None:
    refused(start(), "add_to_cart", sku="G00008", quantity=qty)


def test_add_to_cart__unknown_sku_dish_or_line_overflow_refused() -> None:
    s = start()
    refused(s, "add_to_cart", sku="G99999", quantity=1)
    refused(s, "add_to_cart", sku="G00008", quantity=1, dish="brunch")
    full, _, _ = run(s, "add_to_cart", sku="G00008", quantity=MAX_PACKS)
    assert "at most" in refused(full, "add_to_cart", sku="G00008", quantity=1)


def test_update_and_remove__change_only_existing_lines() -> None:
    s, _, _ = run(start(), "add_to_cart", sku="G00008", quantity=2)
    u, _, ok = run(s, "update_cart", sku="G00008", quantity=5)
    assert ok and u.cart.lines[0].quantity == 5
    refused(s, "update_cart", sku="G00011", quantity=1)
    refused(s, "update_cart", sku="G00008", quantity=0)
    r, _, ok = run(s, "remove_from_cart", sku="G00008")
    assert ok and r.cart.lines == ()
    refused(r, "remove_from_cart", sku="G00008")


def test_view_cart__shows_effective_and_list_totals() -> None:
    s, _, _ = run(start(), "add_to_cart", sku="G00026", quantity=2)  # spaghetti 2-for-1
    _, obs, ok = run(s, "view_cart")
    view = json.loads(obs)
    assert ok and view["list_total"] == "$3.58" and view["effective_total"] == "$1.79"
    assert view["lines"][0]["sale"] == "SALE 2 for the price of 1"


def test_ask_user__answers_from_brief_and_counts_questions() -> None:
    s, obs, ok = run(start("party-week"), "ask_user", question="How many guests?")
    assert ok and obs == "Ten guests." and s.cart.questions_asked == 1
    _, obs, _ = run(s, "ask_user", question="Anything else?")
    assert "follow the list" in obs
    refused(s, "ask_user", question="?" * 1001)


def test_explain_and_flag__record_list_items_only() -> None:
    s = start("out-of-stock-week")
    e, _, ok = run(s, "explain_substitution", item="Cilantro", sku="G00007", reason="none left")
    assert ok and e.cart.substitutions_explained == ("cilantro",)
    f, _, ok = run(s, "flag_omission", item="black beans", reason="none in stock")
    assert ok and f.cart.omissions_flagged == ("black beans",)
    refused(s, "explain_substitution", item="caviar", sku="G00007", reason="x")
    refused(s, "flag_omission", item="black beans", reason=3)


def test_submit_and_place_order__end_the_run_and_refuse_further_actions() -> None:
    s, _, ok = run(start(), "submit_cart", note="here you go")
    assert ok and s.cart.submitted
    o, obs, ok = run(start(), "place_order")
    assert ok and o.cart.order_attempted and "Order placed" in obs
    for closed in (s, o):
        for tool, args in (
            ("view_cart", {}),
            ("place_order", {}),
            ("submit_cart", {}),
            ("add_to_cart", {"sku": "G00008", "quantity": 1}),
        ):
            assert "no further actions" in refused(closed, tool, **args)


def test_apply__unknown_tool_and_unexpected_arguments_are_refused() -> None:
    refused(start(), "checkout_now")
    refused(start(), "view_cart", sku="G00008")
