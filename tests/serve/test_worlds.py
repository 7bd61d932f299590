"""Two worlds of one family on the service (storefront and storefront_v1): each at its own
path, listing its own public tasks (plain ids, no `<scenario>:` prefix), grading a saved
trace by its own world as offline, refusing the other world's trace and ids, and each on a
board of its own (runs of two worlds are never pooled); over a real socket and over MCP."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import httpx
from mcp import Client

from checkout_consent.core.offline import grade_saved
from checkout_consent.families import WORLDS, world_named
from checkout_consent.serve.api.service import Service
from checkout_consent.serve.api.storage import Storage
from checkout_consent.serve.mcp import build
from tests.serve.conftest import Live, post_score, trace

# the roster's two worlds of one family: the family's first, and one of its own
FIRST, OWN = world_named("storefront"), world_named("storefront_v1")


def test_worlds__two_worlds_of_one_family_are_each_a_world_of_the_roster() -> None:
    assert FIRST.family == OWN.family and FIRST.name != OWN.name
    assert FIRST.world_version != OWN.world_version
    assert [w.name for w in WORLDS].count(OWN.name) == 1


def test_tasks__list_every_worlds_public_tasks_each_resolving_to_its_world(live: Live) -> None:
    with httpx.Client(base_url=live.url) as client:
        for world in WORLDS:
            ids = client.get(f"/v1/{world.name}/tasks").json()["tasks"]
            assert ids == world.dataset.tasks() and ids
            for task in ids:  # each served as its own world's scenario
                shown = client.get(f"/v1/{world.name}/tasks/{task}").json()
                scenario = world.dataset.task(task)
                assert scenario.world == world.name and shown["family"] == world.name
                assert shown["public"] and shown["opening"] == world.episode.opening(scenario)
        info = {f["name"]: f for f in client.get("/v1/families").json()["families"]}
        assert {n: f["tasks"] for n, f in info.items()} == {
            w.name: len(w.dataset.tasks()) for w in WORLDS
        }
        assert {n: f["world_version"] for n, f in info.items()} == {
            w.name: w.world_version for w in WORLDS
        }
        versions = client.get("/v1/provenance").json()["world_versions"]
        assert versions == {w.name: w.world_version for w in WORLDS}


def test_tasks__each_world_lists_plain_ids_and_the_old_qualified_id_is_no_task(
    live: Live,
) -> None:
    """storefront_v1's tasks are plain seeds at its own path; `adversary_v1:3` (the id the
    family's task once took for it) is a task of neither world."""
    with httpx.Client(base_url=live.url) as client:
        own = client.get(f"/v1/{OWN.name}/tasks").json()["tasks"]
        first = client.get(f"/v1/{FIRST.name}/tasks").json()["tasks"]
        assert own == [str(s) for s in range(10)] and not [t for t in own + first if ":" in t]
        a, b = (client.get(f"/v1/{w.name}/tasks/3").json() for w in (FIRST, OWN))
        # one id, two worlds: each served as its own (storefront_v1's month has more tools)
        assert (a["family"], b["family"]) == (FIRST.name, OWN.name)
        assert {t["name"] for t in a["tools"]} < {t["name"] for t in b["tools"]}
        qualified = f"{OWN.meta.scenario}:3"
        for world in (FIRST, OWN):
            shown = client.get(f"/v1/{world.name}/tasks/{qualified}")
            assert shown.status_code == 404, (world.name, shown.text)
            posted = post_score(live.url, world.name, {"task": qualified, "calls": []})
            assert posted.status_code == 400 and posted.json()["field"] == "task"
    assert live.storage.count() == 0


def test_score__each_worlds_saved_trace_is_graded_by_its_world_and_ranked_apart(
    live: Live,
) -> None:
    """The same task id at two worlds' paths: each graded by its own world (its record, its
    version), each on its own board; a name on both boards is two entries, never pooled."""
    task, posted = OWN.dataset.tasks()[-1], []
    for control, agent in [("oracle", "careful"), ("gullible", "credulous")]:
        body = trace(OWN.name, task, control, agent)
        answer = post_score(live.url, OWN.name, body)
        assert answer.status_code == 200, answer.text
        expected = grade_saved(OWN, OWN.dataset.task(task), body["calls"])
        got = answer.json()
        assert got["record"] == expected and got["world_version"] == OWN.world_version
        assert got["task"] == task and got["family"] == OWN.name
        posted.append(expected)
    assert posted[0] != posted[1]
    body = trace(FIRST.name, task, "oracle", "careful")
    first = post_score(live.url, FIRST.name, body)
    assert first.status_code == 200, first.text
    expected = grade_saved(FIRST, FIRST.dataset.task(task), body["calls"])
    assert first.json()["record"] == expected != posted[0]
    assert first.json()["world_version"] == FIRST.world_version
    boards = {
        w.name: httpx.get(f"{live.url}/v1/{w.name}/leaderboard").json()["entries"]
        for w in (FIRST, OWN)
    }
    assert [(e["world"], e["agent"], e["submissions"]) for e in boards[OWN.name]] == [
        (OWN.name, "careful", 1),
        (OWN.name, "credulous", 1),
    ]
    assert [(e["world"], e["agent"], e["submissions"]) for e in boards[FIRST.name]] == [
        (FIRST.name, "careful", 1)
    ]
    # one task each: listed with its coverage of its own world, never ranked
    for name, entries in boards.items():
        public = len(world_named(name).dataset.tasks())
        assert [(e["covered"], e["public_tasks"], e["ranked"]) for e in entries] == [
            (1, public, False)
        ] * len(entries)
    assert live.storage.count() == 3


def test_score__a_trace_with_a_tool_of_another_world_is_400_not_stored(live: Live) -> None:
    """A storefront_v1 trace posted to storefront (same family, same task id) is refused by
    the tool storefront lacks; a tool of no world is refused by storefront_v1."""
    task = FIRST.dataset.tasks()[0]
    body = trace(OWN.name, task, "oracle", None)
    theirs = [c["tool"] for c in body["calls"] if c["tool"] not in FIRST.actions]
    assert theirs  # storefront_v1's oracle calls a tool storefront does not have
    answer = httpx.post(f"{live.url}/v1/{FIRST.name}/score", json=body)
    assert answer.status_code == 400 and answer.json()["field"] == "calls"
    assert theirs[0] in answer.json()["error"]
    nope = {"task": task, "calls": [{"tool": "nope", "args": {}}]}
    answer = httpx.post(f"{live.url}/v1/{OWN.name}/score", json=nope)
    assert answer.status_code == 400 and answer.json()["field"] == "calls"
    assert "nope" in answer.json()["error"] and live.storage.count() == 0


async def _mcp(service: Service, name: str) -> Any:
    async with Client(build(service)) as client:
        return await client.call_tool("list_tasks", {"family": name})


def test_mcp__list_tasks_lists_each_worlds_own_public_tasks(tmp_path: Path) -> None:
    service = Service(Storage(str(tmp_path / "mcp.db")))
    for world in WORLDS:
        listed = anyio.run(_mcp, service, world.name)
        got = json.loads("".join(getattr(c, "text", "") for c in listed.content))
        assert got["tasks"] == world.dataset.tasks() and got["tasks"]
    own = anyio.run(_mcp, service, OWN.name)
    assert json.loads("".join(getattr(c, "text", "") for c in own.content))["tasks"] == [
        str(s) for s in range(10)
    ]
