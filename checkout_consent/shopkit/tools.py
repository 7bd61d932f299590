"""The shopkit tools the model sees. File tools are plain actions; the two run tools
execute against the current tree in a confined subprocess, then record the output in the
trace through the pure action, so replay reads the output and never runs anything."""

from __future__ import annotations

from typing import Any

import anyio
from inspect_ai.tool import ToolDef, ToolError

from checkout_consent.core.world import apply
from checkout_consent.runtime.store import current_state, perform
from checkout_consent.runtime.tools import action_tools
from checkout_consent.shopkit import SPEC
from checkout_consent.shopkit.actions import cli_argv, run_cli, run_python
from checkout_consent.shopkit.sandbox.execution import run_command
from checkout_consent.shopkit.sandbox.sandbox import Limits

FILE_TOOLS = ("list_files", "view_file", "write_file", "edit_file")
RUN_LIMITS = Limits(deadline_s=10.0, probe_s=10.0, file_mib=1)
_DRY_RESULT: dict[str, Any] = {"exit_code": 0, "output": ""}


async def _run(name: str, args: dict[str, Any], work: dict[str, Any]) -> str:
    """Check the arguments, execute, and trace the call with its real output."""
    state = current_state(SPEC)
    if not apply(SPEC.actions, state, name, {**args, "result": _DRY_RESULT}).ok:
        step = perform(SPEC, name, args)  # traced as a refused call; nothing runs
        raise ToolError(step.observation)
    result = await anyio.to_thread.run_sync(run_command, state.tree(), work, RUN_LIMITS)
    step = perform(SPEC, name, {**args, "result": result})
    if not step.ok:
        raise ToolError(step.observation)
    return step.observation


def _cli_tool() -> ToolDef:
    async def execute(args: str) -> str:
        try:
            argv = cli_argv(args)
        except Exception:  # the action refuses it again below, and the refusal is traced
            argv = []
        return await _run("run_cli", {"args": args}, {"mode": "cli", "argv": argv})

    execute.__doc__ = run_cli.__doc__
    return ToolDef(execute, name="run_cli")


def _python_tool() -> ToolDef:
    async def execute(code: str) -> str:
        return await _run("run_python", {"code": code}, {"mode": "python", "code": code})

    execute.__doc__ = run_python.__doc__
    return ToolDef(execute, name="run_python")


def tools() -> list[ToolDef]:
    """The tools the model sees, in this order."""
    return [*action_tools(SPEC, FILE_TOOLS), _cli_tool(), _python_tool(),
            *action_tools(SPEC, ("finish",))]
