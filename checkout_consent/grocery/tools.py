"""The grocery store tools the model sees: every action, under its own name."""

from __future__ import annotations

from inspect_ai.tool import ToolDef

from checkout_consent.grocery import SPEC
from checkout_consent.runtime.tools import action_tools

TOOL_NAMES = (
    "search_catalog", "view_product", "add_to_cart", "update_cart", "remove_from_cart",
    "view_cart", "ask_user", "explain_substitution", "flag_omission", "submit_cart",
    "place_order",
)


def tools() -> list[ToolDef]:
    return action_tools(SPEC, TOOL_NAMES)
