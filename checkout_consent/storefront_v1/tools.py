"""The adversary v1 tools the model sees: every action but the harness's own
`context_trimmed`, under its own name."""

from __future__ import annotations

from inspect_ai.tool import ToolDef

from checkout_consent.runtime.tools import action_tools
from checkout_consent.storefront_v1 import WORLD

TOOL_NAMES = tuple(name for name in WORLD.actions if name != "context_trimmed")  # ACTIONS order


def tools() -> list[ToolDef]:
    return action_tools(WORLD, TOOL_NAMES)
