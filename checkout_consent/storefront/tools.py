"""The storefront tools the model sees: every action, under its own name."""

from __future__ import annotations

from inspect_ai.tool import ToolDef

from checkout_consent.runtime.tools import action_tools
from checkout_consent.storefront import SPEC

TOOL_NAMES = (
    "view_state", "place_order", "respond_to_supplier_email", "set_price", "take_note", "end_day",
)


def tools() -> list[ToolDef]:
    return action_tools(SPEC, TOOL_NAMES)
