"""One argument check for both surfaces: the HTTP API and the MCP server refuse the same
arguments with the same one-line message (a value echoed at most ECHO characters), and the
MCP server's stdin takes no line over its cap."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient
from mcp import Client
from pydantic import TypeAdapter

from checkout_consent.serve.api import arguments
from checkout_consent.serve.api.app import create_app
from checkout_consent.serve.api.service import Service
from checkout_consent.serve.api.storage import Storage
from checkout_consent.serve.mcp import MAX_REQUEST, BoundedLines, build
from tests.grocery.helpers import reference_submission

HUGE = "x" * 1_000_000
LIST_NAME = {**reference_submission("normal-week"), "agent": {"name": ["bot"]}}
# (MCP tool, its arguments, the HTTP request for the same thing)
SAME: list[tuple[str, dict[str, Any], tuple[str, str, Any]]] = [
    (
        "get_leaderboard",
        {"family": "pizza", "season": -1},
        ("GET", "/v1/pizza/leaderboard?season=-1", None),
    ),
    (
        "get_leaderboard",
        {"family": "pizza", "season": 10**30},
        ("GET", f"/v1/pizza/leaderboard?season={10**30}", None),
    ),
    ("list_tasks", {"family": HUGE[:5000]}, ("GET", f"/v1/{HUGE[:5000]}/tasks", None)),
    (
        "get_task",
        {"family": "pizza", "task": "a" * 5000},
        ("GET", f"/v1/pizza/tasks/{'a' * 5000}", None),
    ),
    (
        "get_task",
        {"family": "pizza", "task": "no-such-task"},
        ("GET", "/v1/pizza/tasks/no-such-task", None),
    ),
    (
        "score_answer",
        {"family": "grocery", "submission": LIST_NAME},
        ("POST", "/v1/grocery/score", LIST_NAME),
    ),
    (
        "score_answer",
        {
            "family": "grocery",
            "submission": {
                **reference_submission("normal-week"),
                "task": "../../etc/passwd' OR 1=1 --",
            },
        },
        (
            "POST",
            "/v1/grocery/score",
            {**reference_submission("normal-week"), "task": "../../etc/passwd' OR 1=1 --"},
        ),
    ),
]


def _text(result: Any) -> str:
    return "".join(getattr(c, "text", "") for c in result.content)


async def _mcp(service: Service, calls: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    async with Client(build(service)) as client:
        return [await client.call_tool(name, args) for name, args in calls]


def test_arguments__http_and_mcp_refuse_alike_in_one_line(storage: Storage) -> None:
    service = Service(storage)
    results = anyio.run(_mcp, service, [(name, args) for name, args, _ in SAME])
    with TestClient(create_app(service)) as client:
        answers = [
            client.request(
                method, path, content=None if body is None else json.dumps(body).encode()
            )
            for _, _, (method, path, body) in SAME
        ]
    for (name, _, _), result, answer in zip(SAME, results, answers, strict=True):
        assert result.is_error and answer.status_code in (400, 404), (name, answer.text)
        error, field = answer.json()["error"], answer.json().get("field")
        expected = f"invalid {field}: {error}" if answer.status_code == 400 else error
        assert _text(result).endswith(expected), (_text(result), expected)
        assert "\n" not in _text(result) and len(_text(result)) < 300
    assert storage.count() == 0


def test_arguments__a_huge_value_is_echoed_clipped_or_not_at_all(storage: Storage) -> None:
    calls = [
        ("list_tasks", {"family": HUGE}),  # roster lookups echo it clipped
        ("run_benchmark", {"family": "pizza", "control": HUGE}),
        ("get_task", {"family": "pizza", "task": HUGE}),  # its type refuses it unechoed
    ]
    results = anyio.run(_mcp, Service(storage), calls)
    for result in results[:2]:
        assert result.is_error and "1,000,000 characters" in _text(result)
    assert _text(results[2]).endswith("invalid task: String should have at most 100 characters")
    assert all(len(_text(result)) < 300 for result in results)


SEASON = TypeAdapter(arguments.StrictSeason | None)  # what get_leaderboard takes


@pytest.mark.parametrize("value", [-1, 10_001, 10**30, True, 1.5, "3"])
def test_arguments__season_is_a_whole_number_in_range(value: object) -> None:
    with pytest.raises(arguments.Invalid) as refused:
        arguments.checked(SEASON, "season", value)
    assert refused.value.field == "season" and len(str(refused.value)) < 120


def test_arguments__seasons_and_names_in_range_pass() -> None:
    assert [arguments.checked(SEASON, "season", v) for v in (None, 0, 10_000)] == [None, 0, 10_000]
    assert arguments.checked(arguments.NAME, "agent.name", "bot-1 (v2)") == "bot-1 (v2)"
    assert arguments.checked(arguments.NAME, "agent.name", " bot\u00e9 ") == "bot\u00e9"  # trimmed


@pytest.mark.parametrize("value", ["", " ", "a\nb", "\x85", "\ud800", "a" * 101, ["bot"], 3])
def test_arguments__a_board_name_is_one_printable_line(value: object) -> None:
    with pytest.raises(arguments.Invalid) as refused:
        arguments.checked(arguments.NAME, "agent.name", value)
    assert refused.value.field == "agent.name"


def _lines(chunks: list[bytes]) -> tuple[list[str], list[Any]]:
    """What BoundedLines yields and replies for `chunks` written to a pipe."""
    read, write = os.pipe()
    replies: list[Any] = []

    class Reply:
        async def send(self, message: Any) -> None:
            replies.append(message.message)

    def feed() -> None:
        with os.fdopen(write, "wb") as out:
            for chunk in chunks:
                out.write(chunk)

    async def run() -> list[str]:
        lines = BoundedLines(read)
        lines.reply = Reply()  # type: ignore[assignment]
        lines.reply_ready.set()
        return [line async for line in lines]

    feeder = threading.Thread(target=feed)
    feeder.start()
    try:
        got = anyio.run(run)
    finally:
        feeder.join(10)
        os.close(read)
    return got, replies


def test_mcp__a_line_over_the_cap_is_answered_unread_and_the_next_is_served() -> None:
    big = (
        b'{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"x": "'
        + b"y" * (5 * MAX_REQUEST)
        + b'"}}\n'
    )
    got, replies = _lines(
        [
            b'{"first": 1}\n',
            big[: MAX_REQUEST // 3],
            big[MAX_REQUEST // 3 :],
            b'{"next": 2}\n',
            b'{"last": 3}',
        ]
    )
    assert got == ['{"first": 1}', '{"next": 2}', '{"last": 3}']
    assert [(r.id, r.error.code) for r in replies] == [(7, -32600)]
    assert "refused unread" in replies[0].error.message


def test_mcp__an_oversized_line_without_an_id_is_answered_with_a_null_id() -> None:
    got, replies = _lines([b"[" * (MAX_REQUEST + 1) + b"\n", b'{"ok": 1}\n'])
    assert got == ['{"ok": 1}'] and [r.id for r in replies] == [None]


def test_mcp__list_as_agent_name_is_refused_not_stored_anonymous(tmp_path: Path) -> None:
    storage = Storage(str(tmp_path / "m.db"))
    (result,) = anyio.run(
        _mcp, Service(storage), [("score_answer", {"family": "grocery", "submission": LIST_NAME})]
    )
    assert result.is_error and "agent.name" in _text(result) and storage.count() == 0


@pytest.mark.parametrize(
    ("name", "args", "field"),
    [
        ("list_tasks", {"family": ["x"] * 100_000}, "family"),
        ("list_tasks", {}, "family"),
        ("get_leaderboard", {"family": "pizza", "season": "x" * 1_000_000}, "season"),
        ("score_answer", {"family": "pizza", "submission": "not an object"}, "submission"),
    ],
)
def test_mcp__a_wrongly_typed_argument_is_one_line_naming_it(
    storage: Storage, name: str, args: dict[str, Any], field: str
) -> None:
    (result,) = anyio.run(_mcp, Service(storage), [(name, args)])
    assert result.is_error and f"invalid {field}: " in _text(result)
    assert "\n" not in _text(result) and len(_text(result)) < 300


async def _schemas(service: Service) -> dict[str, Any]:
    async with Client(build(service)) as client:
        return {t.name: t.input_schema["properties"] for t in (await client.list_tools()).tools}


def test_arguments__the_openapi_document_and_the_tools_carry_the_bounds(storage: Storage) -> None:
    service = Service(storage)
    with TestClient(create_app(service)) as client:
        doc = client.get("/openapi.json").json()
    params = {
        p["name"]: p["schema"]
        for path in doc["paths"].values()
        for op in path.values()
        for p in op.get("parameters", [])
    }
    tools = anyio.run(_schemas, service)
    task, season = params["task"], params["season"]["anyOf"][0]
    assert task["pattern"] == tools["get_task"]["task"]["pattern"] and task["maxLength"] == 100
    assert (season["minimum"], season["maximum"]) == (0, arguments.MAX_SEASON)
    assert tools["get_leaderboard"]["season"]["anyOf"][0]["maximum"] == arguments.MAX_SEASON
    name = doc["components"]["schemas"]["AgentCard"]["properties"]["name"]
    assert name["maxLength"] == arguments.MAX_NAME and "pattern" in name
