"""The service's board ranks like the leaderboard, and an agent name is its first
submitter's. An entry is ranked only when its runs cover the world's public task set (a
cherry-picker's one perfect task is listed unranked with its coverage, below nobody); the
first submission under a name is answered with a token (stored as its sha256 only) that
every later one must send (401 without it or with another), over HTTP and as the operator's
`serve-token` verb. MCP answers the same refusal (tests/serve/test_mcp.py)."""

from __future__ import annotations

import hashlib
import sqlite3

import httpx

from checkout_consent.cli.main import main
from checkout_consent.families import world_named
from tests.serve.conftest import Live, post_score, trace

PUBLIC = world_named("pizza").dataset.tasks()


def test_api_board__only_an_entry_covering_the_public_set_is_ranked(live: Live) -> None:
    for task in PUBLIC:  # the whole public set, imperfectly (the over-cap control)
        assert post_score(live.url, "pizza", trace("pizza", task, "over-cap", "whole")).is_success
    picked = post_score(live.url, "pizza", trace("pizza", PUBLIC[0], "reference", "picker"))
    assert picked.json()["record"]["score"] == 1.0  # one perfect task
    whole, picker = httpx.get(f"{live.url}/v1/pizza/leaderboard").json()["entries"]
    assert (whole["agent"], whole["ranked"], whole["covered"]) == ("whole", True, len(PUBLIC))
    assert whole["value"] is not None and whole["value"] < 1.0
    assert (picker["agent"], picker["ranked"], picker["value"]) == ("picker", False, None)
    assert (picker["covered"], picker["public_tasks"]) == (1, len(PUBLIC))


def test_api_board__a_name_is_owned_by_its_first_submitter(live: Live) -> None:
    body = trace("pizza", PUBLIC[0], "reference", "owner")
    first = httpx.post(f"{live.url}/v1/pizza/score", json=body)
    token = first.json()["agent_token"]
    assert first.status_code == 200 and token
    for headers in ({}, {"authorization": "Bearer not-the-token"}, {"authorization": token}):
        squat = httpx.post(f"{live.url}/v1/pizza/score", json=body, headers=headers)
        assert squat.status_code == 401 and squat.json()["field"] == "authorization"
        assert "owned by its first submitter" in squat.json()["error"]
        assert "\n" not in squat.text
    again = httpx.post(
        f"{live.url}/v1/pizza/score", json=body, headers={"authorization": f"Bearer {token}"}
    )
    assert again.status_code == 200 and again.json()["agent_token"] is None
    assert live.storage.count() == 2  # the refused posts stored nothing


def test_api_board__tokens_are_stored_as_their_sha256_only(live: Live) -> None:
    token = post_score(live.url, "pizza", trace("pizza", PUBLIC[0], "noop", "hashed")).json()[
        "agent_token"
    ]
    with sqlite3.connect(live.storage.target) as db:
        [(stored,)] = db.execute("SELECT token_sha256 FROM agents WHERE name = 'hashed'")
    assert stored == hashlib.sha256(token.encode()).hexdigest() != token


def test_serve_token__the_operator_issues_a_names_token(live: Live, capsys) -> None:
    assert main(["serve-token", "--db", live.storage.target, "--agent", "issued"]) == 0
    token = capsys.readouterr().out.strip()
    body = trace("pizza", PUBLIC[0], "reference", "issued")
    assert httpx.post(f"{live.url}/v1/pizza/score", json=body).status_code == 401
    owned = httpx.post(
        f"{live.url}/v1/pizza/score", json=body, headers={"authorization": f"Bearer {token}"}
    )
    assert owned.status_code == 200
    assert main(["serve-token", "--db", live.storage.target, "--agent", "issued"]) == 2
    assert (
        capsys.readouterr()
        .err.strip()
        .endswith("agent name 'issued' is owned already (--replace: a new token)")
    )


def test_serve_token__replace_gives_a_lost_tokens_name_a_new_one(live: Live, capsys) -> None:
    db = live.storage.target
    assert main(["serve-token", "--db", db, "--agent", "lost", "--replace"]) == 2
    assert capsys.readouterr().err.strip().endswith("agent name 'lost' is not owned: issue it")
    assert main(["serve-token", "--db", db, "--agent", "lost"]) == 0
    old = capsys.readouterr().out.strip()
    assert main(["serve-token", "--db", db, "--agent", "lost", "--replace"]) == 0
    got = capsys.readouterr()
    new = got.out.strip()
    assert new != old and "the old token no longer works" in got.err
    body = trace("pizza", PUBLIC[0], "reference", "lost")
    for token, status in ((old, 401), (new, 200)):
        answer = httpx.post(
            f"{live.url}/v1/pizza/score", json=body, headers={"authorization": f"Bearer {token}"}
        )
        assert answer.status_code == status
