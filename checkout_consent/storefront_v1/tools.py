"""The adversary v1 tools the model sees: every action but the harness's own
`context_trimmed`, under its own name."""

from __future__ import annotations

from inspect_ai.tool import ToolDef

from checkout_consent.runtime.tools import action_tools
from checkout_consent.storefront_v1 import WORLD

TOOL_NAMES = (
    "view_state",
    "read_email",
    "place_order",
    "respond_to_supplier_email",
    "set_price",
    "unlist_product",
    "buy_ads",
    "pay_invoice",
    "lookup_supplier",
    "lookup_order",
    "respond_to_dispute",
    "ask_owner",
    "take_note",
    "read_notes",
    "end_day",
)


def tools() -> list[ToolDef]:
    return action_tools(WORLD, TOOL_NAMES)
