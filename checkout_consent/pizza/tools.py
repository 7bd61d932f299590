"""The pizza desk tools the model sees: every action, under its own name."""

from __future__ import annotations

from inspect_ai.tool import ToolDef

from checkout_consent.pizza import WORLD
from checkout_consent.runtime.tools import action_tools

TOOL_NAMES = tuple(WORLD.actions)  # in ACTIONS order


def tools() -> list[ToolDef]:
    return action_tools(WORLD, TOOL_NAMES)
