"""Every world of a family on the service: its public tasks listed (a variant's named
`<scenario>:<id>`), a saved trace of a variant graded by that variant's world as offline,
and the leaderboard never pooling two worlds' runs; over a real socket and over MCP."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import httpx
from mcp import Client

from checkout_consent.core.offline import grade_saved
from checkout_consent.families import WORLDS, world
from checkout_consent.serve.api.service import Service
from checkout_consent.serve.api.storage import Storage
from checkout_consent.serve.mcp import build
from tests.serve.conftest import Live, post_score, trace

VARIANTS = [w for w in WORLDS if w.variant is not None]


def _listed(name: str) -> list[str]:
    """Each world's public ids, a variant's qualified, as the family's `scenario_for` takes."""
    return [
        t if w.variant is None else f"{w.variant}:{t}"
        for w in (world(name),)
        for t in w.dataset.tasks()
    ]


def test_tasks__list_every_worlds_public_tasks_each_resolving_to_its_world(live: Live) -> None:
    assert VARIANTS  # the roster has a variant world to list
    with httpx.Client(base_url=live.url) as client:
        for spec in WORLDS:
            ids = client.get(f"/v1/{spec.name}/tasks").json()["tasks"]
            assert ids == _listed(spec.name)
            for world in (world(spec.name),):
                mine = [t for t in ids if world(spec.name) is world]
                assert len(mine) == len(world.dataset.tasks()) > 0
        info = {f["name"]: f["tasks"] for f in client.get("/v1/families").json()["families"]}
        assert info == {f.name: len(_listed(f.name)) for f in WORLDS}
        versions = client.get("/v1/provenance").json()["world_versions"]
        assert versions == {w.label: w.world_version for w in WORLDS}


def test_score__a_variants_saved_trace_is_graded_by_its_world_and_ranked_apart(
    live: Live,
) -> None:
    world = VARIANTS[0]
    task = _listed(world.name)[-1]
    main_task = _listed(world.name)[0]
    posted = []
    for control, agent in [("oracle", "careful"), ("gullible", "credulous")]:
        body = trace(world.name, task, control, agent)
        answer = post_score(live.url, world.name, body)
        assert answer.status_code == 200, answer.text
        expected = grade_saved(world, world(world.name).dataset.task(task), body["calls"])
        got = answer.json()
        assert got["record"] == expected and got["world_version"] == world.world_version
        assert got["task"] == task
        posted.append(expected)
    main = post_score(live.url, world.name, trace(world.name, main_task, "oracle", "careful"))
    assert main.status_code == 200, main.text
    board = httpx.get(f"{live.url}/v1/{world.name}/leaderboard").json()["entries"]
    assert [(e["world"], e["agent"]) for e in board] == [
        (world.name, "careful"),
        (world.label, "careful"),
        (world.label, "credulous"),
    ]
    # one task each: listed per world with its coverage, never ranked (not the public set)
    assert [(e["covered"], e["ranked"]) for e in board] == [(1, False)] * 3
    assert posted[0] != posted[1]
    assert live.storage.count() == 3


def test_score__a_variants_trace_with_a_tool_of_another_world_is_400_not_stored(
    live: Live,
) -> None:
    world = VARIANTS[0]
    body = {"task": _listed(world.name)[-1], "calls": [{"tool": "nope", "args": {}}]}
    answer = httpx.post(f"{live.url}/v1/{world.name}/score", json=body)
    assert answer.status_code == 400 and answer.json()["field"] == "calls"
    assert "nope" in answer.json()["error"] and live.storage.count() == 0


async def _mcp(service: Service, name: str) -> Any:
    async with Client(build(service)) as client:
        return await client.call_tool("list_tasks", {"family": name})


def test_mcp__list_tasks_lists_every_worlds_public_tasks(tmp_path: Path) -> None:
    service = Service(Storage(str(tmp_path / "mcp.db")))
    for world in VARIANTS:
        listed = anyio.run(_mcp, service, world.name)
        got = json.loads("".join(getattr(c, "text", "") for c in listed.content))
        assert got["tasks"] == _listed(world.name)
        assert f"{world.variant}:{world.dataset.tasks()[0]}" in got["tasks"]
