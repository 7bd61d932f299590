"""One poisoned submission fails alone: text storage cannot hold is refused at validation
(400 naming the field), and a row the database refuses fails only its own request, never
the neighbours that shared its group commit."""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest

from checkout_consent.serve.api.commit import GroupCommit
from checkout_consent.serve.api.storage import Storage
from tests.grocery.helpers import reference_submission
from tests.serve.conftest import Live, trace


def test_group_commit__a_failed_row_fails_alone_in_its_batch() -> None:
    stored: list[Any] = []
    holding, first_batch = threading.Event(), threading.Event()

    def insert(rows: list[tuple[Any, ...]]) -> None:
        if rows == [("hold",)]:
            holding.set()
            first_batch.wait(10)  # the writer waits here while the next batch queues up
        if ("bad",) in rows:
            raise sqlite3.IntegrityError("bad row")
        stored.extend(rows)

    writer = GroupCommit(insert)
    results: dict[str, str] = {}

    def write(value: str) -> None:
        try:
            writer.write((value,))
            results[value] = "ok"
        except sqlite3.IntegrityError as error:
            results[value] = str(error)

    hold = threading.Thread(target=write, args=("hold",))
    hold.start()
    assert holding.wait(10)
    values = [f"good-{i}" for i in range(20)] + ["bad"]
    threads = [threading.Thread(target=write, args=(v,)) for v in values]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 10
    while writer.pending.qsize() < len(values):  # all queued: they form one batch
        assert time.monotonic() < deadline
        time.sleep(0.01)
    first_batch.set()
    for t in [hold, *threads]:
        t.join(10)
    assert results.pop("bad") == "bad row"
    assert set(results.values()) == {"ok"} and len(results) == 21
    assert sorted(stored) == sorted((v,) for v in ["hold", *values] if v != "bad")


def test_storage__a_row_the_database_refuses_fails_alone_beside_concurrent_writers(
    storage: Storage,
) -> None:
    names = [f"agent-{i}" for i in range(40)] + ["\ud800"]  # not UTF-8: sqlite refuses it

    def add(name: str) -> str:
        try:
            storage.add("pizza", "allergen-1", name, None, {}, {"score": 1.0})
            return "ok"
        except UnicodeEncodeError:
            return "refused"

    with ThreadPoolExecutor(16) as pool:
        got = dict(zip(names, pool.map(add, names), strict=True))
    assert got.pop("\ud800") == "refused" and set(got.values()) == {"ok"}
    assert storage.count() == 40


def test_api__a_poisoned_submission_is_400_and_its_concurrent_neighbours_succeed(
    live: Live,
) -> None:
    poisoned = {**reference_submission("normal-week"), "agent": {"name": "\ud800"}}
    good = json.dumps(trace("pizza", "allergen-1", "reference")).encode()
    jobs = [("grocery", json.dumps(poisoned).encode())] + [("pizza", good)] * 40
    owner = {"authorization": f"Bearer {live.storage.claim('tester')}"}  # one owner, 40 posts

    def post(job: tuple[str, bytes]) -> httpx.Response:
        return httpx.post(
            f"{live.url}/v1/{job[0]}/score", content=job[1], headers=owner, timeout=60
        )

    with ThreadPoolExecutor(20) as pool:
        answers = list(pool.map(post, jobs))
    bad, rest = answers[0], answers[1:]
    assert bad.status_code == 400 and bad.json()["field"] == "agent.name"
    assert "unicode" in bad.json()["error"]  # Pydantic's word for a lone surrogate
    assert [a.status_code for a in rest] == [200] * 40 and live.storage.count() == 40


UNSTORABLE = [
    ("\ud800", "unicode string"),  # Pydantic's words for `arguments.Text`'s refusals
    ("a\x00b", "should match pattern"),
    ("x" * 100_001, "at most 100000 characters"),
]


@pytest.mark.parametrize(("value", "why"), UNSTORABLE)
@pytest.mark.parametrize(
    ("family", "body", "field"),
    [
        (
            "grocery",
            lambda v: {**reference_submission("normal-week"), "agent": {"name": v}},
            "agent.name",
        ),
        (
            "grocery",
            lambda v: {
                **reference_submission("normal-week"),
                "cart": {"lines": [], "substitutions_explained": [v]},
            },
            "cart.substitutions_explained.0",
        ),
        ("grocery", lambda v: {**reference_submission("normal-week"), v: 1}, "<key>"),
        ("pizza", lambda v: {**trace("pizza", "allergen-1", "reference"), "task": v}, "task"),
        (
            "pizza",
            lambda v: {
                **trace("pizza", "allergen-1", "reference"),
                "calls": [{"tool": "lookup_order", "args": {"order_id": v}}],
            },
            "calls.0.args.order_id",
        ),
    ],
)
def test_api__unstorable_text_in_any_field_is_400_naming_it(
    live: Live, family: str, body: Any, field: str, value: str, why: str
) -> None:
    answer = httpx.post(f"{live.url}/v1/{family}/score", content=json.dumps(body(value)).encode())
    assert answer.status_code == 400, answer.text
    assert answer.json()["field"] == field and why in answer.json()["error"]
    assert len(answer.text) < 400 and live.storage.count() == 0
