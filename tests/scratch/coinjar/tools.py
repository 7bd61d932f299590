"""The Inspect tools: the world's one action."""

from __future__ import annotations

from inspect_ai.tool import ToolDef

from checkout_consent.coinjar import WORLD
from checkout_consent.runtime.tools import action_tools


def tools() -> list[ToolDef]:
    return action_tools(WORLD, ("pay",))
