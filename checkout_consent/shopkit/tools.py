"""The shopkit tools the model sees. File tools are plain actions; the two run tools
execute against the current tree in the sample's sandbox (`sandbox()`: the confined
`checkout-consent` one by default), then record the output in the trace through the pure
action, so replay reads the output and never runs anything."""

from __future__ import annotations

import functools
from typing import Any

import anyio
from inspect_ai.tool import ToolDef, ToolError

from checkout_consent.runtime.store import current_state, perform
from checkout_consent.runtime.tools import action_tools
from checkout_consent.shopkit import WORLD
from checkout_consent.shopkit.actions import run_cli, run_python
from checkout_consent.shopkit.sandbox.prepare import prepare_call
from checkout_consent.shopkit.sandbox.remote import in_sandbox

FILE_TOOLS = ("list_files", "view_file", "write_file", "edit_file")


async def _run(name: str, args: dict[str, Any]) -> str:
    """Execute (unless the action refuses the call) and trace the call with its output."""
    state = current_state(WORLD)
    full = await anyio.to_thread.run_sync(in_sandbox(prepare_call, state, name, args))
    step = perform(WORLD, name, full)
    if not step.ok:
        raise ToolError(step.observation)
    return step.observation


@functools.cache  # one function per process: Inspect caches every tool function it sees
def _cli_tool() -> ToolDef:
    async def execute(args: str) -> str:
        return await _run("run_cli", {"args": args})

    execute.__doc__ = run_cli.__doc__
    return ToolDef(execute, name="run_cli")


@functools.cache
def _python_tool() -> ToolDef:
    async def execute(code: str) -> str:
        return await _run("run_python", {"code": code})

    execute.__doc__ = run_python.__doc__
    return ToolDef(execute, name="run_python")


def tools() -> list[ToolDef]:
    """The tools the model sees, in this order."""
    return [
        *action_tools(WORLD, FILE_TOOLS),
        _cli_tool(),
        _python_tool(),
        *action_tools(WORLD, ("finish",)),
    ]
