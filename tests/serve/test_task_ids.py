"""One task, one id, on every surface (issue 41, item 1). storefront took `04`, `004`,
`adversary_v0:4` ... as seed 4 and the service stored the client's string, so one seed
posted under thirty aliases counted as thirty tasks and climbed the board. Now every world
parses a task id in its one spelling, refusing any other, so the HTTP service, the MCP
server, `score --task` and `submit validate` store, count and group canonical ids only."""

from __future__ import annotations

import json
from typing import Any

import anyio
import httpx
import pytest
from mcp import Client

from checkout_consent.families import WORLDS, world_named
from checkout_consent.leaderboard.validate import validate
from checkout_consent.serve.api.service import Service
from checkout_consent.serve.api.storage import Storage
from checkout_consent.serve.mcp import build
from tests.leaderboard.helpers import STOREFRONT, copy_example, edit_log
from tests.serve.conftest import Live, post_score, trace

SEED_ALIASES = ["04", "004", "0004", "+4", "４", "adversary_v0:4", "adversary_v0:04", "4.0"]


def _aliases(task: str) -> list[str]:
    """Other spellings a lenient parser might take for `task`."""
    out = ["0" + task, "00" + task, "+" + task, task.upper(), task.lower(), task + ":"]
    wide = task.translate({d: d + 0xFEE0 for d in range(ord("0"), ord("9") + 1)})
    out += [task.replace("-", "_"), wide, " " + task, task + " "]
    return [a for a in dict.fromkeys(out) if a != task]


@pytest.mark.parametrize("name", [w.name for w in WORLDS])
def test_dataset__every_world_takes_each_task_id_in_one_spelling_only(name: str) -> None:
    dataset = world_named(name).dataset
    for task in dataset.tasks():
        dataset.task(task)  # the listed spelling is taken
        for alias in _aliases(task):
            with pytest.raises((ValueError, KeyError, FileNotFoundError)):
                dataset.task(alias)


def _board(url: str) -> list[tuple[Any, ...]]:
    entries = httpx.get(f"{url}/v1/storefront/leaderboard").json()["entries"]
    return [(e["agent"], e["value"], e["submissions"], e["tasks"], e["ranked"]) for e in entries]


def test_api_board__a_seed_posted_under_aliases_leaves_headline_count_and_rank_unchanged(
    live: Live,
) -> None:
    seeds = world_named("storefront").dataset.tasks()
    for seed in seeds:
        for agent, control in (("gullible-agent", "gullible"), ("oracle-agent", "oracle")):
            assert post_score(live.url, "storefront", trace("storefront", seed, control, agent))
    before, stored = _board(live.url), live.storage.count()
    assert [e[0] for e in before] == ["oracle-agent", "gullible-agent"]
    assert before[1][2:4] == (10, 10)  # ten submissions over ten tasks
    oracle_4 = trace("storefront", "4", "oracle", "gullible-agent")
    for alias in SEED_ALIASES:
        answer = post_score(live.url, "storefront", {**oracle_4, "task": alias})
        assert answer.status_code == 400, (alias, answer.text)
        assert answer.json()["field"] == "task" and "\n" not in answer.text
    assert "is spelled '4'" in post_score(live.url, "storefront", {**oracle_4, "task": "04"}).text
    assert _board(live.url) == before and live.storage.count() == stored
    assert httpx.get(f"{live.url}/v1/storefront/tasks/04").status_code == 404


def test_api_board__a_row_stored_under_an_alias_is_counted_nowhere(storage: Storage) -> None:
    """A database an older service filled: its alias rows are left off the board."""
    world = world_named("storefront")
    body = trace("storefront", "4", "oracle", "old")
    record = Service(storage).score("storefront", json.dumps(body).encode()).record
    storage.add("storefront", "04", "old", None, {**body, "task": "04"}, record)
    [entry] = Service(storage).leaderboard(world.name)
    assert (entry["agent"], entry["submissions"], entry["covered"]) == ("old", 1, 1)


async def _mcp(service: Service, calls: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    async with Client(build(service)) as client:
        return [await client.call_tool(name, args) for name, args in calls]


def test_mcp__a_seed_alias_is_refused_and_nothing_is_stored(storage: Storage) -> None:
    body = {**trace("storefront", "4", "oracle", "mcp-agent"), "task": "004"}
    calls = [
        ("score_answer", {"family": "storefront", "submission": body}),
        ("get_task", {"family": "storefront", "task": "04"}),
    ]
    scored, task = anyio.run(_mcp, Service(storage), calls)
    assert scored.is_error and "is spelled '4'" in scored.content[0].text
    assert task.is_error
    assert storage.count() == 0


def test_validate__a_seed_repeated_under_an_alias_is_refused(tmp_path) -> None:
    """A log playing seed 4 twice, the copy's sample id spelled `seed-04`."""
    sub = copy_example(tmp_path, *STOREFRONT)

    def repeat(log: Any) -> None:
        [four] = [s for s in log.samples if s.id == "seed-4"]
        log.samples.append(four.model_copy(update={"id": "seed-04"}))

    edit_log(sub, repeat)
    verdict = validate(sub, cassettes=False)
    assert not verdict.ok
    assert any("sample seed-04" in r and "INTEGRITY" in r for r in verdict.refusals), (
        verdict.refusals
    )
