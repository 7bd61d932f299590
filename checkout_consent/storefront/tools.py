"""The storefront tools the model sees: every action, under its own name."""

from __future__ import annotations

from inspect_ai.tool import ToolDef

from checkout_consent.runtime.tools import action_tools
from checkout_consent.storefront import WORLD


def tools() -> list[ToolDef]:  # view_state, place_order, ... end_day, in the actions' order
    return action_tools(WORLD, tuple(WORLD.actions))
