"""`checkout-consent mcp`: the scoring service as an MCP server over stdio (the official
SDK), answered by the same `Service` and argument types as the HTTP API, so both refuse
alike. A bad argument is an error result naming it, never a crash; a request line over
MAX_REQUEST bytes is answered with a JSON-RPC error, unparsed."""

from __future__ import annotations

import json
import os
import re
from collections.abc import AsyncIterator, Callable
from typing import Any, TypeVar

import anyio
import mcp_types as types
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.stdio import stdio_server
from mcp.shared._context_streams import ContextSendStream
from mcp.shared.message import SessionMessage
from pydantic import ValidationError

from checkout_consent.families import names
from checkout_consent.serve.api.app import submission_out
from checkout_consent.serve.api.arguments import (
    ECHO,
    Invalid,
    NotFound,
    StrictSeason,
    TaskId,
    Unauthorized,
    current_names,
)
from checkout_consent.serve.api.service import Service
from checkout_consent.serve.api.submission import MAX_BODY

T = TypeVar("T")
MAX_REQUEST = 2 * MAX_BODY  # bytes in one JSON-RPC line: a submission and its envelope
_ID = re.compile(rb'"id"\s*:\s*(-?\d{1,15}|"[A-Za-z0-9_.:-]{0,100}")')


def _answer(fn: Callable[[], T]) -> T:
    """A service call; a refusal becomes the tool's one-line error result."""
    try:
        return fn()
    except Invalid as error:
        raise ToolError(f"invalid {error.field}: {error.message}") from None
    except (NotFound, Unauthorized) as error:
        raise ToolError(str(error)) from None


def _body(submission: dict[str, Any]) -> bytes:
    try:
        return json.dumps(submission, allow_nan=False).encode()
    except (ValueError, RecursionError, TypeError):
        raise ToolError("invalid submission: not a finite, bounded JSON object") from None


class _OneLineServer(MCPServer):
    """The SDK's server, its own argument-type refusals made one line naming the field
    (`invalid season: Input should be a valid integer`), as HTTP's are; an argument under a
    retired name (`task_id`) is refused naming the one to use, as an HTTP body's is."""

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        try:
            _answer(lambda: current_names(arguments))
            return await super().call_tool(name, arguments, context)
        except ToolError as error:
            cause = error.__cause__
            if not isinstance(cause, ValidationError) or type(error) is not ToolError:
                raise
            first = cause.errors()[0]
            where = ".".join(str(part) for part in first["loc"]) or "arguments"
            raise ToolError(
                f"Error executing tool {name[:ECHO]}: invalid {where[:ECHO]}: {first['msg']}"
            ) from cause


def build(service: Service) -> MCPServer:
    server = _OneLineServer(
        "checkout-consent",
        instructions=(
            f"Score AI-agent runs on the checkout-consent families ({', '.join(names())}): "
            "list and read tasks, score a saved trace or a family's own submission, run the "
            "offline controls, read provenance and leaderboards (ranked by each family's "
            "headline)."
        ),
    )

    def list_tasks(family: str) -> dict[str, Any]:
        return {"family": family[:100], "tasks": _answer(lambda: service.tasks(family))}

    list_tasks.__doc__ = f"The public task ids of a family ({', '.join(names())})."
    server.tool()(list_tasks)

    @server.tool()
    def get_task(family: str, task: TaskId) -> dict[str, Any]:
        """One public task as its agent meets it: the system prompt, the opening message
        and the tools (name and description). Never the answer key."""
        return _answer(lambda: service.task(family, task))

    @server.tool()
    def score_answer(
        family: str, submission: dict[str, Any], agent_token: str | None = None
    ) -> dict[str, Any]:
        """Grade and store a submission. Trace families take {"task": ID, "calls":
        [{"tool": NAME, "args": {...}}, ...], "agent": {"name": ...}}. Returns the stored
        submission with its record (hard fails flagged in it). An agent name is owned by
        its first submitter: that answer carries `agent_token`, which every later
        submission under the name must pass as `agent_token`."""
        row, issued = _answer(lambda: service.submit(family, _body(submission), agent_token))
        return submission_out(row, issued).model_dump()

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
    def get_leaderboard(family: str, season: StrictSeason | None = None) -> dict[str, Any]:
        """Stored submissions of a family per agent (one season when given), best first."""
        entries = _answer(lambda: service.leaderboard(family, season))
        return {"family": family, "season": season, "entries": entries}

    return server


def _too_large(line: bytes, size: int) -> SessionMessage:
    """The JSON-RPC error for an oversized request, with its id when the line's start names one."""
    found = _ID.search(line[:300])
    raw = found.group(1).decode() if found else None
    ident: int | str | None = None if raw is None else json.loads(raw)
    return SessionMessage(
        types.JSONRPCError(
            jsonrpc="2.0",
            id=ident,
            error=types.ErrorData(
                code=types.INVALID_REQUEST,
                message=f"request of {size:,} bytes refused unread; "
                f"the limit is {MAX_REQUEST:,} bytes",
            ),
        )
    )


class BoundedLines:
    """Lines of a binary file descriptor, each at most MAX_REQUEST bytes: an oversized line
    is skipped as it arrives (never held whole) and answered on `reply` with an error."""

    def __init__(self, fd: int) -> None:
        self.fd, self.reply_ready = fd, anyio.Event()
        self.reply: ContextSendStream[SessionMessage] | None = None

    async def _refuse(self, head: bytes, size: int) -> None:
        await self.reply_ready.wait()
        assert self.reply is not None
        await self.reply.send(_too_large(head, size))

    async def __aiter__(self) -> AsyncIterator[str]:
        pending, head, dropped = b"", b"", 0  # dropped: bytes skipped of an oversized line
        while chunk := await anyio.to_thread.run_sync(
            os.read, self.fd, 1 << 16, abandon_on_cancel=True
        ):
            pending += chunk
            while (end := pending.find(b"\n")) >= 0:
                line, pending = pending[:end], pending[end + 1 :]
                if dropped:
                    await self._refuse(head, dropped + len(line))
                    dropped = 0
                elif len(line) > MAX_REQUEST:
                    await self._refuse(line[:300], len(line))
                else:
                    yield line.decode("utf-8", errors="replace")
            if dropped or len(pending) > MAX_REQUEST:
                head = head if dropped else pending[:300]
                dropped, pending = dropped + len(pending), b""
        if pending and not dropped:  # a last line without its newline
            yield pending.decode("utf-8", errors="replace")


async def _run(server: MCPServer) -> None:
    """`MCPServer.run_stdio_async` with stdin read by BoundedLines; fd 0 is pointed at the null
    device, as the SDK does, so nothing the server starts reads the wire."""
    wire = os.dup(0)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    lines = BoundedLines(wire)
    low = server._lowlevel_server  # noqa: SLF001  (the SDK's own stdio runner does this)
    async with stdio_server(stdin=lines) as (read_stream, write_stream):  # type: ignore[arg-type]
        lines.reply = write_stream
        lines.reply_ready.set()
        await low.run(read_stream, write_stream, low.create_initialization_options())


def serve_stdio(service: Service) -> None:
    anyio.run(_run, build(service))
