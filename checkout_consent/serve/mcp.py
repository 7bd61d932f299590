"""`checkout-consent mcp`: the scoring service as an MCP server over stdio (the official MCP
Python SDK). Tools: list_tasks, get_task, score_answer, run_benchmark, get_provenance,
get_leaderboard, all answered by the same `Service` as the HTTP API (and stored in the same
database). A bad argument is an error result naming it, never a crash."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from checkout_consent.families import names
from checkout_consent.serve.api.app import submission_out
from checkout_consent.serve.api.service import NotFound, Service
from checkout_consent.serve.api.submission import Invalid

T = TypeVar("T")


def _answer(fn: Callable[[], T]) -> T:
    """Run a service call; a refusal becomes the tool's error result (one line)."""
    try:
        return fn()
    except Invalid as error:
        raise ToolError(f"invalid {error.field}: {error.message}") from None
    except NotFound as error:
        raise ToolError(str(error)) from None


def _body(submission: dict[str, Any]) -> bytes:
    try:
        return json.dumps(submission, allow_nan=False).encode()
    except (ValueError, RecursionError, TypeError):
        raise ToolError("invalid submission: not a finite, bounded JSON object") from None


def build(service: Service) -> MCPServer:
    server = MCPServer("checkout-consent", instructions=(
        f"Score AI-agent runs on the checkout-consent families ({', '.join(names())}): "
        "list and read tasks, score a saved trace or a family's own submission, run the "
        "offline controls, read provenance and leaderboards (ranked by each family's "
        "headline)."))

    def list_tasks(family: str) -> dict[str, Any]:
        return {"family": family, "tasks": _answer(lambda: service.tasks(family))}

    list_tasks.__doc__ = f"The public task ids of a family ({', '.join(names())})."
    server.tool()(list_tasks)

    @server.tool()
    def get_task(family: str, task_id: str) -> dict[str, Any]:
        """One task in full: what the agent is told and sees."""
        return _answer(lambda: service.task(family, task_id))

    @server.tool()
    def score_answer(family: str, submission: dict[str, Any]) -> dict[str, Any]:
        """Grade and store a submission. Trace families take {"task": ID, "calls":
        [{"tool": NAME, "args": {...}}, ...], "agent": {"name": ...}}. Returns the stored
        submission with its record (hard fails flagged in it)."""
        row = _answer(lambda: service.score(family, _body(submission)))
        return submission_out(row).model_dump()

    @server.tool()
    def run_benchmark(family: str, control: str | None = None) -> dict[str, Any]:
        """Play a scripted control (default: the family's reference) over the public tasks,
        offline and with no model; returns one line per task and the summary."""
        return _answer(lambda: service.run_benchmark(family, control))

    @server.tool()
    def get_provenance() -> dict[str, Any]:
        """Suite version, git sha, world versions, task-set checksums and licence."""
        return service.provenance()

    @server.tool()
    def get_leaderboard(family: str, season: int | None = None) -> dict[str, Any]:
        """Stored submissions of a family per agent (one season when given), best first."""
        entries = _answer(lambda: service.leaderboard(family, season))
        return {"family": family, "season": season, "entries": entries}

    return server


def serve_stdio(service: Service) -> None:
    build(service).run("stdio")
