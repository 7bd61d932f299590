"""A task is served as its agent meets it (system prompt, opening message, tools), never the
scorer's side; held-out tasks are neither shown nor graded unless the operator serves them
(`--serve-heldout`), over HTTP and over MCP alike."""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from mcp import Client

from checkout_consent.core.contract import World
from checkout_consent.families import WORLDS, world_named
from checkout_consent.runtime.tasks import sample
from checkout_consent.serve.api.service import Service
from checkout_consent.serve.api.storage import Storage
from checkout_consent.serve.mcp import build
from tests.grocery.helpers import reference_submission
from tests.serve.conftest import serving


def _inspect_tools(world: World) -> list[str]:
    """The names of the tools the world's Inspect task gives the model (its own folder's
    `tools`, as its task module imports them)."""
    module = importlib.import_module(f"checkout_consent.{world.name}.tools")
    return [tool.name for tool in module.tools()]


@pytest.mark.parametrize("world", WORLDS, ids=[w.name for w in WORLDS])
def test_task__served_as_the_inspect_sample_and_tools_the_agent_gets(
    storage: Storage, world: World
) -> None:
    task_id = world.dataset.tasks()[0]  # each world's own id, at its own path
    scenario = world.dataset.task(task_id)
    assert scenario.world == world.name  # the sample names its own world
    shown = Service(storage).task(world.name, task_id)
    assert shown["public"] is True and shown["family"] == world.name
    assert shown["opening"] == sample(world, scenario).input
    assert shown["system"] == world.episode.system(scenario)
    assert [t["name"] for t in shown["tools"]] == _inspect_tools(world)
    assert all(t["description"] for t in shown["tools"])


# what `show` prints for the scorer: the answer key and the customer's later script
SCORER_SIDE = {
    ("pizza", "cold-pizza-1"): ("expected:", "customer pushes:", "customer after"),
    ("grocery", "normal-week"): ("--- scorer side ---",),
}


@pytest.mark.parametrize(("name", "task_id"), list(SCORER_SIDE))
def test_task__never_serves_the_answer_key(storage: Storage, name: str, task_id: str) -> None:
    shown = json.dumps(Service(storage).task(name, task_id))
    full = world_named(name).views.show(task_id)
    hidden = [
        ln.split(":", 1)[-1].strip()
        for ln in full.splitlines()
        if ln.startswith(SCORER_SIDE[name, task_id])
    ]
    if name == "grocery":  # everything after the marker line
        hidden = [ln for ln in full.split(SCORER_SIDE[name, task_id][0])[1].splitlines() if ln]
    assert hidden and all(h and json.dumps(h)[1:-1] not in shown for h in hidden)


def test_task__heldout_is_not_listed_shown_or_graded_by_default(
    storage: Storage, heldout_task: str
) -> None:
    service = Service(storage)
    assert heldout_task not in service.tasks("grocery")
    with serving(service) as url:
        shown = httpx.get(f"{url}/v1/grocery/tasks/{heldout_task}")
        posted = httpx.post(
            f"{url}/v1/grocery/score",
            content=json.dumps(reference_submission(heldout_task)).encode(),
        )
    assert shown.status_code == 404 and "--serve-heldout" in shown.json()["error"]
    assert posted.status_code == 400 and posted.json()["field"] == "task"
    assert "cheapest" not in shown.text and storage.count() == 0


def test_task__heldout_is_shown_and_graded_when_the_operator_serves_it(
    storage: Storage, heldout_task: str
) -> None:
    with serving(Service(storage, serve_heldout=True)) as url:
        shown = httpx.get(f"{url}/v1/grocery/tasks/{heldout_task}")
        posted = httpx.post(
            f"{url}/v1/grocery/score",
            content=json.dumps(reference_submission(heldout_task)).encode(),
        )
    assert shown.status_code == 200 and shown.json()["public"] is False
    assert "cheapest" not in shown.text
    assert posted.status_code == 200, posted.text
    assert posted.json()["task"] == heldout_task and storage.count() == 1


async def _mcp_heldout(service: Service, task_id: str) -> tuple[Any, Any, Any]:
    async with Client(build(service)) as client:
        listed = await client.call_tool("list_tasks", {"family": "grocery"})
        shown = await client.call_tool("get_task", {"family": "grocery", "task": task_id})
        scored = await client.call_tool(
            "score_answer", {"family": "grocery", "submission": reference_submission(task_id)}
        )
    return listed, shown, scored


def _text(result: Any) -> str:
    return "".join(getattr(c, "text", "") for c in result.content)


@pytest.mark.parametrize("serve_heldout", [False, True])
def test_mcp__heldout_tasks_only_when_the_operator_serves_them(
    tmp_path: Path, heldout_task: str, serve_heldout: bool
) -> None:
    storage = Storage(str(tmp_path / "mcp.db"))
    listed, shown, scored = anyio.run(
        _mcp_heldout, Service(storage, serve_heldout=serve_heldout), heldout_task
    )
    assert heldout_task not in _text(listed)  # held-out ids are never listed
    assert shown.is_error is not serve_heldout and scored.is_error is not serve_heldout
    assert "cheapest" not in _text(shown)
    assert storage.count() == (1 if serve_heldout else 0)
    if serve_heldout:
        assert json.loads(_text(shown))["public"] is False
        assert json.loads(_text(scored))["task"] == heldout_task
    else:
        assert "--serve-heldout" in _text(shown) and "invalid task" in _text(scored)


@pytest.mark.parametrize(("flag", "expected"), [([], 404), (["--serve-heldout"], 200)])
def test_cli__serve_api_serves_heldout_only_with_the_flag(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    heldout_task: str,
    flag: list[str],
    expected: int,
) -> None:
    import uvicorn
    from fastapi.testclient import TestClient

    from checkout_consent.cli.main import main
    from checkout_consent.serve.api.app import DB_ENV, HELDOUT_ENV, from_environment

    monkeypatch.setattr(uvicorn, "run", lambda *args, **kwargs: None)
    monkeypatch.setenv(DB_ENV, ""), monkeypatch.setenv(HELDOUT_ENV, "")  # restored after
    assert main(["serve-api", "--db", str(tmp_path / "s.db"), *flag]) == 0
    with TestClient(from_environment()) as client:
        assert client.get(f"/v1/grocery/tasks/{heldout_task}").status_code == expected


@pytest.mark.parametrize("flag", [[], ["--serve-heldout"]])
def test_cli__mcp_serves_heldout_only_with_the_flag(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, flag: list[str]
) -> None:
    from checkout_consent.cli.main import main
    from checkout_consent.serve import mcp

    started: list[Service] = []
    monkeypatch.setattr(mcp, "serve_stdio", started.append)
    assert main(["mcp", "--db", str(tmp_path / "m.db"), *flag]) == 0
    assert [s.serve_heldout for s in started] == [bool(flag)]
