"""The work shopkit's two run tools do outside the pure world: execute the command against
the current tree in the confined subprocess and hand the output to the pure action as its
`result`. Shared by the Inspect tools (shopkit/tools.py) and the offline driver (through
`World.prepare_call`), so both trace the same calls."""

from __future__ import annotations

from typing import Any

from checkout_consent.core import apply
from checkout_consent.shopkit.actions import ACTIONS, cli_argv
from checkout_consent.shopkit.sandbox.execution import run_command
from checkout_consent.shopkit.sandbox.sandbox import Limits
from checkout_consent.shopkit.state import State

RUN_TOOLS = ("run_cli", "run_python")
RUN_LIMITS = Limits(deadline_s=10.0, probe_s=10.0, file_mib=1)
_DRY_RESULT: dict[str, Any] = {"exit_code": 0, "output": ""}


def _work(tool: str, args: dict[str, Any]) -> dict[str, Any]:
    if tool == "run_python":
        return {"mode": "python", "code": args.get("code")}
    try:
        argv = cli_argv(args.get("args"))
    except Exception:  # the action refuses it again, and the refusal is traced
        argv = []
    return {"mode": "cli", "argv": argv}


def prepare_call(state: State, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    """A run tool's arguments with the executed `result`; any other call as made. A call
    the action would refuse runs nothing (it is traced as the refusal)."""
    if tool not in RUN_TOOLS:
        return args
    bare = {k: v for k, v in args.items() if k != "result"}
    if not apply(ACTIONS, state, tool, {**bare, "result": _DRY_RESULT}).ok:
        return bare
    return {**bare, "result": run_command(state.tree(), _work(tool, bare), RUN_LIMITS)}
