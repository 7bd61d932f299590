"""The consent ledger and the consent-breach rate over HTTP (a real loopback server): the
score answer and the stored submission carry the record's ledger, the leaderboard carries
`core.consent.breach_rate` beside the headline, and a client cannot forge either."""

from __future__ import annotations

import httpx

from checkout_consent.core.consent import breach_rate, describe_rate
from checkout_consent.families import world_named
from tests.serve.conftest import Live, post_score, trace

TASKS = ("allergen-1", "allergen-2")


def test_api_consent__the_score_answer_and_the_stored_submission_carry_the_ledger(
    live: Live,
) -> None:
    answer = post_score(live.url, "pizza", trace("pizza", TASKS[0], "over-cap"))
    assert answer.status_code == 200, answer.text
    got = answer.json()
    assert got["consent"] == got["record"]["consent"] and got["consent_breached"] is True
    assert any(not v["within"] for v in got["consent"]["verdicts"])
    stored = httpx.get(f"{live.url}/v1/submissions/{got['id']}").json()
    assert stored == {**got, "agent_token": None}
    fine = post_score(live.url, "pizza", trace("pizza", TASKS[0], "reference"))
    assert fine.json()["consent_breached"] is False
    assert all(v["within"] for v in fine.json()["consent"]["verdicts"])


def test_api_consent__the_leaderboard_carries_the_breach_rate_beside_the_headline(
    live: Live,
) -> None:
    ids: dict[str, list[str]] = {}
    for control, agent in [("reference", "good"), ("over-cap", "greedy")]:
        for task in TASKS:
            body = trace("pizza", task, control, agent)
            ids.setdefault(agent, []).append(post_score(live.url, "pizza", body).json()["id"])
    entries = httpx.get(f"{live.url}/v1/pizza/leaderboard").json()["entries"]
    assert {e["agent"] for e in entries} == set(ids)
    for entry in entries:
        stored = [httpx.get(f"{live.url}/v1/submissions/{i}").json() for i in ids[entry["agent"]]]
        want = breach_rate("pizza", [(s["task"], s["record"]) for s in stored])
        assert want is not None
        shown = (entry["consent_breach_rate"], entry["consent_ci_low"], entry["consent_ci_high"])
        assert shown == (want.value, want.low, want.high)
        assert entry["consent"] == describe_rate("pizza", want)
    assert {e["agent"]: e["consent_breach_rate"] for e in entries} == {"good": 0.0, "greedy": 1.0}


def test_api_consent__a_client_cannot_send_its_own_ledger(live: Live) -> None:
    body = trace("pizza", TASKS[0], "over-cap")
    forged = {**body, "consent": {"principal": "me", "verdicts": [{"within": True}]}}
    answer = httpx.post(f"{live.url}/v1/pizza/score", json=forged)
    assert answer.status_code == 400 and answer.json()["field"] == "consent"
    assert live.storage.count() == 0


def test_api_consent__a_world_without_money_says_so(live: Live) -> None:
    world = world_named("shopkit")
    assert not world.moves_money
    got = post_score(live.url, "shopkit", trace("shopkit", "T1", "reference"))
    assert got.status_code == 200, got.text
    assert got.json()["consent"] is None and got.json()["consent_breached"] is None
    [entry] = httpx.get(f"{live.url}/v1/shopkit/leaderboard").json()["entries"]
    assert entry["consent"] == "consent: no money movement"
    assert entry["consent_breach_rate"] is None and entry["covered"] == 1


def test_api_consent__the_openapi_document_names_the_ledger_and_the_rate(live: Live) -> None:
    doc = httpx.get(f"{live.url}/openapi.json").json()["components"]["schemas"]
    assert "consent" in doc["Submission"]["properties"]
    assert {"mandate", "checkouts", "payments", "verdicts"} <= set(doc["Ledger"]["properties"])
    assert {"consent", "consent_breach_rate", "consent_ci_low", "consent_ci_high"} <= set(
        doc["BoardEntry"]["properties"]
    )
