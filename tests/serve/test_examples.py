"""What a request carries, as checkout_consent/serve/README.md documents it (issue 34, item
10): the task is `task` in every body, path, tool argument and answer, and the retired
`task_id` is refused naming it; every route and MCP tool that takes a body has a shipped
example per family, each graded 200 over HTTP and MCP as shipped (the grocery cart its
README documents included); a new body route or tool without one fails; and the MCP tools
table is the server's own tool list, arguments included."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, NamedTuple

import anyio
import pytest
from fastapi.testclient import TestClient
from mcp import Client

from checkout_consent.families import names
from checkout_consent.serve.api.app import create_app
from checkout_consent.serve.api.service import Service
from checkout_consent.serve.api.storage import Storage
from checkout_consent.serve.mcp import build
from tests.core.make_example_traces import EXAMPLES, PACKAGE, Example
from tests.grocery.test_cli import EXAMPLE as GROCERY_CART
from tests.serve.make_example_bodies import body_path, body_text
from tests.serve.test_api import steady

SERVE_DOC = PACKAGE / "serve" / "README.md"
USE_TASK = 'use "task"'


class Documented(NamedTuple):
    requests: tuple[str, ...]  # `POST /v1/{family}/score` and MCP tool names
    family: str
    path: Path


def table(heading: str) -> list[list[str]]:
    """The cells of each body row of the first table under `## heading` in the serve doc."""
    section = SERVE_DOC.read_text(encoding="utf-8").split(f"\n## {heading}\n", 1)[1]
    section = section.split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("|")][2:]
    return [[cell.strip() for cell in row.strip().strip("|").split("|")] for row in rows]


# what a world's example body is posted to: the HTTP route and the MCP tool that score one
SCORE_REQUESTS = ("POST /v1/{family}/score", "score_answer")


def documented_bodies() -> list[Documented]:
    """Every world's example bodies, found in its folder (a JSON object beside its example
    traces, `checkout_consent/<world>/examples/`, as the serve doc says): a new world's are
    found with no line here."""
    return [
        Documented(SCORE_REQUESTS, path.parent.parent.name, path.resolve())
        for path in sorted(PACKAGE.glob("*/examples/*.json"))
        if isinstance(json.loads(path.read_text(encoding="utf-8")), dict)
    ]


BODIES = documented_bodies()


def _tools() -> list[Any]:
    async def listed() -> list[Any]:
        async with Client(build(Service(Storage(":memory:")))) as client:
            return list((await client.list_tools()).tools)

    return anyio.run(listed)


def body_requests(openapi: dict[str, Any], tools: list[Any]) -> set[tuple[str, str]]:
    """Every (request, family) that takes a body: each OpenAPI operation with a request body
    (for each family its path allows), and each MCP tool with an object argument."""
    wanted = set()
    for path, operations in openapi["paths"].items():
        for method, operation in operations.items():
            if "requestBody" not in operation:
                continue
            family = [p for p in operation.get("parameters", []) if p["name"] == "family"]
            for name in family[0]["schema"]["enum"] if family else [""]:
                wanted.add((f"{method.upper()} {path}", name))
    for tool in tools:
        arguments = tool.input_schema.get("properties", {}).values()
        if any(a.get("type") == "object" for a in arguments):
            wanted |= {(tool.name, name) for name in names()}
    return wanted


@pytest.fixture
def service(tmp_path: Path) -> Service:
    return Service(Storage(str(tmp_path / "s.db")))


def test_examples__the_grocery_cart_its_readme_documents_is_graded_as_shipped(
    service: Service,
) -> None:
    with TestClient(create_app(service)) as client:
        answer = client.post("/v1/grocery/score", content=GROCERY_CART.read_bytes())
    assert answer.status_code == 200, answer.text
    got = answer.json()
    assert got["task"] == got["record"]["task_id"] == "normal-week"
    assert got["record"]["score"] == 1.0 and got["record"]["scored_on"] == got["received_at"][:10]


async def _score_answer(service: Service, family: str, body: dict[str, Any]) -> Any:
    async with Client(build(service)) as client:
        return await client.call_tool("score_answer", {"family": family, "submission": body})


@pytest.mark.parametrize("documented", BODIES, ids=[b.path.name for b in BODIES])
def test_examples__every_body_is_graded_over_http_and_mcp_as_shipped(
    service: Service, documented: Documented
) -> None:
    raw = documented.path.read_bytes()
    with TestClient(create_app(service)) as client:
        answer = client.post(f"/v1/{documented.family}/score", content=raw)
        assert answer.status_code == 200, answer.text
        got = answer.json()
        assert client.get(f"/v1/submissions/{got['id']}").json()["record"] == got["record"]
    assert got["task"] == json.loads(raw)["task"] and got["record"]
    result = anyio.run(_score_answer, service, documented.family, json.loads(raw))
    assert not result.is_error, result.content
    scored = json.loads("".join(getattr(c, "text", "") for c in result.content))
    assert steady(scored["record"]) == steady(got["record"]) and service.storage.count() == 2


def test_examples__every_request_that_takes_a_body_has_one_per_family() -> None:
    openapi = TestClient(create_app(Service(Storage(":memory:")))).get("/openapi.json").json()
    wanted = body_requests(openapi, _tools())
    assert ("POST /v1/{family}/score", "grocery") in wanted and len(wanted) > len(names())
    documented = {(r, b.family) for b in BODIES for r in b.requests}
    assert wanted == documented, (sorted(wanted - documented), sorted(documented - wanted))
    for body in BODIES:
        assert isinstance(json.loads(body.path.read_text(encoding="utf-8")), dict), body.path
    shipped = {  # a JSON object beside a family's traces is a body: each is posted above
        p.resolve()
        for p in PACKAGE.glob("*/examples/*.json")
        if isinstance(json.loads(p.read_text(encoding="utf-8")), dict)
    }
    assert shipped == {b.path for b in BODIES}


@pytest.mark.parametrize("example", EXAMPLES, ids=[f"{e.family}-{e.task}" for e in EXAMPLES])
def test_examples__each_trace_body_is_its_controls_run_as_generated(example: Example) -> None:
    shipped = (PACKAGE / body_path(example)).read_text(encoding="utf-8")
    assert shipped == body_text(example), "regenerate: python -m tests.serve.make_example_bodies"


def _cell_arguments(cell: str) -> list[tuple[str, bool]]:
    """`family`, `control` (optional: ...) -> [("family", False), ("control", True)]."""
    return [(n, bool(o)) for n, o in re.findall(r"`(\w+)`( \(optional)?", cell)]


def test_mcp_doc__the_tools_table_is_the_servers_tool_list_with_arguments() -> None:
    served = {
        tool.name: [
            (name, name not in tool.input_schema.get("required", []))
            for name in tool.input_schema.get("properties", {})
        ]
        for tool in _tools()
    }
    documented = {tool.strip("`"): _cell_arguments(args) for tool, args, _ in table("MCP tools")}
    assert documented == served


async def _get_task(service: Service) -> list[Any]:
    async with Client(build(service)) as client:
        return [
            await client.call_tool("get_task", {"family": "pizza", "task_id": "allergen-1"}),
            await client.call_tool("get_task", {"family": "pizza", "task": "allergen-1"}),
        ]


def test_names__the_task_is_task_in_every_request_and_task_id_is_refused_naming_it(
    service: Service,
) -> None:
    with TestClient(create_app(service)) as client:
        openapi = client.get("/openapi.json").json()
        shown = client.get("/v1/pizza/tasks/allergen-1").json()
        refused = []
        for body in BODIES:
            data = json.loads(body.path.read_text(encoding="utf-8"))
            renamed = {"task_id" if k == "task" else k: v for k, v in data.items()}
            refused.append(client.post(f"/v1/{body.family}/score", json=renamed))
    operations = [o for path in openapi["paths"].values() for o in path.values()]
    params = {p["name"] for o in operations for p in o.get("parameters", [])}
    schemas = openapi["components"]["schemas"]
    assert "task" in params and "task_id" not in params
    assert "task" in schemas["TaskDetail"]["properties"] and shown["task"] == "allergen-1"
    assert all("task_id" not in t.input_schema.get("properties", {}) for t in _tools())
    for answer in refused:
        assert answer.status_code == 400 and answer.json()["field"] == "task_id", answer.text
        assert USE_TASK in answer.json()["error"]
    assert service.storage.count() == 0
    old, new = anyio.run(_get_task, service)
    assert old.is_error and USE_TASK in old.content[0].text and "task_id" in old.content[0].text
    assert not new.is_error and json.loads(new.content[0].text)["task"] == "allergen-1"
