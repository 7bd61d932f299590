"""A bounded load test on loopback: 2,000 score requests, 50 at a time, valid and invalid
mixed, under one agent name claimed first (every later one carries the name's token). None is
lost (each gets an answer), and what is stored is exactly what was accepted."""

from __future__ import annotations

import anyio
import httpx
import pytest

from tests.serve.conftest import Live, trace

REQUESTS, CONCURRENT = 2_000, 50


async def hammer(url: str) -> tuple[list[int], list[str]]:
    good = trace("pizza", "allergen-1", "reference", "load")
    bad = {"task": "allergen-1", "calls": "not a list"}
    statuses: list[int] = []
    ids: list[str] = []
    limits = httpx.Limits(max_connections=CONCURRENT)
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=120) as client:
        first = await client.post("/v1/pizza/score", json=good)  # claims the name: its token
        assert first.status_code == 200, first.text
        ids.append(first.json()["id"])
        client.headers["authorization"] = f"Bearer {first.json()['agent_token']}"

        async def one(i: int, gate: anyio.CapacityLimiter) -> None:
            async with gate:
                answer = await client.post("/v1/pizza/score", json=bad if i % 5 == 0 else good)
            statuses.append(answer.status_code)
            if answer.status_code == 200:
                ids.append(answer.json()["id"])

        gate = anyio.CapacityLimiter(CONCURRENT)
        async with anyio.create_task_group() as group:
            for i in range(REQUESTS):
                group.start_soon(one, i, gate)
    return statuses, ids


@pytest.mark.slow
def test_api__under_load_nothing_is_lost_and_stored_equals_accepted(live: Live) -> None:
    statuses, ids = anyio.run(hammer, live.url)
    assert len(statuses) == REQUESTS  # besides the first, which claimed the name
    assert statuses.count(200) == REQUESTS * 4 // 5 and statuses.count(400) == REQUESTS // 5
    assert len(set(ids)) == len(ids) == live.storage.count()
    assert {r.id for r in live.storage.rows("pizza")} == set(ids)
