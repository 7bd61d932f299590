"""The MCP server end to end: `checkout-consent mcp` as a subprocess, driven by the SDK's own
stdio client. Every tool answers; bad arguments are error results and the server lives on."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from checkout_consent.runtime.provenance import REPO_ROOT
from checkout_consent.serve.api.storage import Storage
from tests.serve.conftest import trace

TOOLS = {
    "list_tasks",
    "get_task",
    "score_answer",
    "run_benchmark",
    "get_provenance",
    "get_leaderboard",
}
BAD_CALLS: list[tuple[str, dict[str, Any]]] = [
    ("list_tasks", {"family": "nope"}),
    ("list_tasks", {}),
    ("list_tasks", {"family": 3}),
    ("get_task", {"family": "pizza", "task": "../../etc/passwd"}),
    ("score_answer", {"family": "pizza", "submission": {"task": "allergen-1"}}),
    ("score_answer", {"family": "pizza", "submission": "not an object"}),
    ("run_benchmark", {"family": "pizza", "control": "nope"}),
    ("get_leaderboard", {"family": "pizza", "season": "x"}),
    ("no_such_tool", {}),
]


def text(result: Any) -> str:
    return "".join(getattr(c, "text", "") for c in result.content)


async def session_run(db: str) -> dict[str, Any]:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "checkout_consent.cli", "mcp", "--db", db],
        env={**os.environ, "PYTHONPATH": str(REPO_ROOT)},
    )
    out: dict[str, Any] = {}
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        out["tools"] = {t.name for t in (await session.list_tools()).tools}
        call = session.call_tool
        out["tasks"] = json.loads(text(await call("list_tasks", {"family": "pizza"})))
        out["task"] = json.loads(
            text(await call("get_task", {"family": "pizza", "task": "allergen-1"}))
        )
        body = trace("pizza", "allergen-1", "reference", "mcp-agent")
        out["scored"] = json.loads(
            text(await call("score_answer", {"family": "pizza", "submission": body}))
        )
        out["squat"] = await call("score_answer", {"family": "pizza", "submission": body})
        out["wrong"] = await call(
            "score_answer", {"family": "pizza", "submission": body, "agent_token": "x"}
        )
        token = out["scored"]["agent_token"]
        owner = {"family": "pizza", "submission": body, "agent_token": token}
        out["owned"] = json.loads(text(await call("score_answer", owner)))
        out["bench"] = json.loads(text(await call("run_benchmark", {"family": "pizza"})))
        out["provenance"] = json.loads(text(await call("get_provenance", {})))
        out["bad"] = [await call(name, args) for name, args in BAD_CALLS]
        out["board"] = json.loads(text(await call("get_leaderboard", {"family": "pizza"})))
    return out


def test_mcp__every_tool_answers_over_stdio_and_bad_arguments_are_errors(tmp_path: Path) -> None:
    db = str(tmp_path / "mcp.db")
    got = anyio.run(session_run, db)
    assert got["tools"] == TOOLS
    assert "allergen-1" in got["tasks"]["tasks"] and got["task"]["task"] == "allergen-1"
    assert got["scored"]["record"]["score"] == 1.0
    assert got["scored"]["consent"] == got["scored"]["record"]["consent"]  # the ledger
    assert got["scored"]["consent_breached"] is False
    assert "mean score 100.0%" in got["bench"]["summary"]
    assert got["provenance"]["licence"] == "MIT"
    for (name, _), result in zip(BAD_CALLS, got["bad"], strict=True):
        assert result.is_error and text(result), name
    assert [e["agent"] for e in got["board"]["entries"]] == ["mcp-agent"]
    assert got["board"]["entries"][0]["consent_breach_rate"] == 0.0  # beside the headline
    entry = got["board"]["entries"][0]  # one task of the public set: listed, not ranked
    public = len(got["tasks"]["tasks"])
    assert (entry["ranked"], entry["covered"], entry["public_tasks"]) == (False, 1, public)
    assert entry["value"] is None  # no headline for a partial entry, as over HTTP
    for refused in (got["squat"], got["wrong"]):  # the API's 401, as an error result
        assert refused.is_error and "owned by its first submitter" in text(refused)
    assert got["owned"]["agent_token"] is None and got["owned"]["record"]["score"] == 1.0
    assert Storage(db).count() == 2


def _rpc(ident: int, method: str, params: dict[str, Any]) -> bytes:
    return (
        json.dumps({"jsonrpc": "2.0", "id": ident, "method": method, "params": params}).encode()
        + b"\n"
    )


@pytest.mark.slow
def test_mcp__a_10mb_request_is_refused_fast_and_the_next_is_not_delayed(tmp_path: Path) -> None:
    """The real stdio server: a 10 MB tools/call is answered with an error naming the cap,
    and the request after it is answered, both within seconds of sending."""
    server = subprocess.Popen(
        [sys.executable, "-m", "checkout_consent.cli", "mcp", "--db", str(tmp_path / "m.db")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(REPO_ROOT)},
    )
    assert server.stdin is not None and server.stdout is not None
    try:
        server.stdin.write(
            _rpc(
                1,
                "initialize",
                {
                    "protocolVersion": "2025-06-18",
                    "capabilities": {},
                    "clientInfo": {"name": "test", "version": "0"},
                },
            )
        )
        server.stdin.flush()
        assert json.loads(server.stdout.readline())["id"] == 1
        server.stdin.write(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}\n')
        huge = _rpc(
            2, "tools/call", {"name": "list_tasks", "arguments": {"family": "x" * 10_000_000}}
        )
        start = time.monotonic()
        server.stdin.write(
            huge + _rpc(3, "tools/call", {"name": "list_tasks", "arguments": {"family": "pizza"}})
        )
        server.stdin.flush()
        answers = {a["id"]: a for a in (json.loads(server.stdout.readline()) for _ in "ab")}
        took = time.monotonic() - start
    finally:
        server.kill()
        server.wait(10)
    assert (
        answers[2]["error"]["code"] == -32600
        and "refused unread" in answers[2]["error"]["message"]
        and len(json.dumps(answers[2])) < 300
    )
    assert "allergen-1" in answers[3]["result"]["content"][0]["text"]
    assert took < 5, took
