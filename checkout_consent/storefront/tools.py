"""The storefront tools the model sees: every action, under its own name."""

from __future__ import annotations

from inspect_ai.tool import ToolDef

from checkout_consent.runtime.tools import action_tools
from checkout_consent.storefront import SPEC

TOOL_NAMES = tuple(SPEC.actions)  # view_state, place_order, ... end_day, in that order


def tools() -> list[ToolDef]:
    return action_tools(SPEC, TOOL_NAMES)
