"""The grocery store tools the model sees: every action, under its own name, in ACTIONS order."""

from __future__ import annotations

from inspect_ai.tool import ToolDef

from checkout_consent.grocery import WORLD
from checkout_consent.runtime.tools import action_tools


def tools() -> list[ToolDef]:
    return action_tools(WORLD, tuple(WORLD.actions))
