"""Inspect glue: a world's actions as tools, each built once (Inspect never evicts its cache)."""

from __future__ import annotations

import inspect
import typing
from collections.abc import Sequence
from typing import Any

from inspect_ai.tool import ToolDef, ToolError

from checkout_consent.core.contract import World
from checkout_consent.core.world import action_params
from checkout_consent.runtime.store import perform

_BUILT: dict[tuple[int, str], tuple[World, ToolDef]] = {}  # (id(world), name) -> tool


def action_tool(world: World, name: str) -> ToolDef:
    """One action as an Inspect tool (the same object on every call for this world)."""
    hit = _BUILT.get((id(world), name))
    if hit is not None and hit[0] is world:
        return hit[1]
    tool = _build(world, name)
    _BUILT[(id(world), name)] = (world, tool)
    return tool


def _build(world: World, name: str) -> ToolDef:
    action = world.actions[name]
    params = action_params(action)
    hints = typing.get_type_hints(action)

    async def execute(**kwargs: Any) -> str:
        step = perform(world, name, kwargs)
        if not step.ok:
            raise ToolError(step.observation)
        return step.observation

    execute.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [p.replace(annotation=hints.get(p.name, Any)) for p in params]
    )
    execute.__annotations__ = {p.name: hints.get(p.name, Any) for p in params} | {"return": str}
    execute.__doc__ = action.__doc__
    execute.__name__ = name
    return ToolDef(execute, name=name)


def action_tools(world: World, names: Sequence[str]) -> list[ToolDef]:
    """The named actions as tools, in the given order."""
    unknown = [n for n in names if n not in world.actions]
    if unknown:
        raise KeyError(f"{world.name} has no action(s) {unknown}")
    return [action_tool(world, n) for n in names]
