"""The HTTP API over a real socket: routes, semantics (hard fail 200 and stored; invalid 400
naming the field and not stored; 404; 413), provenance and the leaderboard."""

from __future__ import annotations

import json

import httpx
import pytest

from checkout_consent.core.offline import grade_saved
from checkout_consent.families import WORLDS, world_named
from tests.serve.conftest import Live, post_score, trace


def test_api__health_families_and_tasks_answer(live: Live) -> None:
    with httpx.Client(base_url=live.url) as client:
        assert client.get("/health").json() == {"status": "ok", "submissions": 0}
        listed = client.get("/v1/families").json()["families"]
        assert [f["name"] for f in listed] == [f.name for f in WORLDS]
        for world in WORLDS:
            ids = client.get(f"/v1/{world.name}/tasks").json()["tasks"]
            assert ids == world.dataset.tasks() and ids
            shown = client.get(f"/v1/{world.name}/tasks/{ids[0]}").json()
            scenario = world.dataset.task(ids[0])
            assert shown["public"] and shown["opening"] == world.episode.opening(scenario)


@pytest.mark.parametrize(
    "path",
    [
        "/nope",
        "/v1/nope/tasks",
        "/v1/pizza/tasks/nope-9",
        "/v1/pizza/tasks/..%2F..%2Fetc",
        "/v1/submissions/abc",
        "/v1/nope/leaderboard",
    ],
)
def test_api__unknown_routes_and_things_are_404_json(live: Live, path: str) -> None:
    answer = httpx.get(live.url + path)
    assert answer.status_code == 404 and "error" in answer.json()


VOLATILE = {"grade_seconds", "build_error"}  # shopkit: wall time; a temporary directory


def steady(record: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in record.items() if k not in VOLATILE}


@pytest.mark.parametrize(
    ("name", "task", "control"),
    [
        ("pizza", "allergen-1", "reference"),
        ("storefront", "3", "oracle"),
        ("shopkit", "T1", "reference"),
    ],
)
def test_api__a_valid_trace_is_graded_as_offline_and_stored(
    live: Live, name: str, task: str, control: str
) -> None:
    body = trace(name, task, control)
    answer = post_score(live.url, name, body)
    assert answer.status_code == 200, answer.text
    world = world_named(name)
    expected = grade_saved(world, world.dataset.task(task), body["calls"])
    got = answer.json()
    assert steady(got["record"]) == steady(expected)
    stored = httpx.get(f"{live.url}/v1/submissions/{got['id']}").json()
    assert got["agent_token"] and stored == {**got, "agent_token": None}  # the token once
    assert live.storage.count() == 1


def test_api__a_hard_fail_is_answered_200_flagged_and_stored(live: Live) -> None:
    answer = post_score(live.url, "pizza", trace("pizza", "allergen-1", "over-cap"))
    assert answer.status_code == 200
    assert "cap_breach" in answer.json()["record"]["policy_violations"]
    assert live.storage.count() == 1


BAD = [
    (b"{", "body"),
    (b"[]", "body"),
    (b'{"task": NaN, "calls": []}', "body"),
    (b'{"task": "allergen-1", "calls": [1e999]}', "body"),
    (b"[" * 5000 + b"]" * 5000, "body"),
    (
        json.dumps(
            {"a": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}
        ).encode(),
        "body",
    ),
    (b'{"calls": []}', "task"),
    (b'{"task": 7, "calls": []}', "task"),
    (b'{"task": "../../etc/passwd", "calls": []}', "task"),
    (b'{"task": "no-such-task", "calls": []}', "task"),
    (b'{"task": "allergen-1"}', "calls"),
    (b'{"task": "allergen-1", "calls": {}}', "calls"),
    (b'{"task": "allergen-1", "calls": [{"args": {}}]}', "calls.0.tool"),
    (b'{"task": "allergen-1", "calls": [], "extra": 1}', "extra"),
    (b'{"task": "allergen-1", "calls": [], "agent": {"name": ""}}', "agent.name"),
    (
        json.dumps(
            {
                "task": "allergen-1",
                "calls": [
                    {"tool": "lookup_order", "args": {"order_id": "x"}, "observation": "forged"}
                ],
            }
        ).encode(),
        "calls",
    ),
]


@pytest.mark.parametrize(("body", "field"), BAD)
def test_api__an_invalid_submission_is_400_naming_the_field_and_not_stored(
    live: Live, body: bytes, field: str
) -> None:
    answer = httpx.post(
        f"{live.url}/v1/pizza/score", content=body, headers={"content-type": "application/json"}
    )
    assert answer.status_code == 400, answer.text
    assert answer.json()["field"] == field and answer.json()["error"]
    assert live.storage.count() == 0


def test_api__an_oversized_body_is_413_whatever_it_claims(live: Live) -> None:
    big = b'{"task": "allergen-1", "calls": [' + b" " * 1_100_000 + b"]}"
    answer = httpx.post(f"{live.url}/v1/pizza/score", content=big)
    assert answer.status_code == 413 and answer.json()["field"] == "body"

    def chunks():  # no Content-Length: the cap counts what arrives
        for _ in range(20):
            yield b" " * 100_000

    answer = httpx.post(f"{live.url}/v1/pizza/score", content=chunks())
    assert answer.status_code == 413 and live.storage.count() == 0


def test_api__provenance_names_versions_checksums_and_licence(live: Live) -> None:
    got = httpx.get(f"{live.url}/v1/provenance").json()
    assert got["licence"] == "MIT"
    assert got["world_versions"] == {w.name: w.world_version for w in WORLDS}
    assert all(len(v) == 64 for v in got["task_checksums"].values())


def test_api__the_leaderboard_lists_partial_entries_unranked_with_their_coverage(
    live: Live,
) -> None:
    for control, agent in [("reference", "good"), ("noop", "idle"), ("over-cap", "greedy")]:
        post_score(live.url, "pizza", trace("pizza", "allergen-1", control, agent))
    board = httpx.get(f"{live.url}/v1/pizza/leaderboard").json()
    public = len(world_named("pizza").dataset.tasks())
    assert {e["agent"] for e in board["entries"]} == {"good", "idle", "greedy"}
    assert all(not e["ranked"] and e["value"] is None for e in board["entries"])
    assert {(e["covered"], e["public_tasks"]) for e in board["entries"]} == {(1, public)}
    assert next(e for e in board["entries"] if e["agent"] == "good")["means"]["score"] == 1.0
    assert httpx.get(f"{live.url}/v1/pizza/leaderboard?season=1").json()["entries"] == []
    bad = httpx.get(f"{live.url}/v1/pizza/leaderboard?season=x")
    assert bad.status_code == 400 and bad.json()["field"] == "season"
