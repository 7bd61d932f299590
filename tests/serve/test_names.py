"""Names that cannot be faked (issue 41, item 2). With `Claude` owned, another client
claimed `Сlaude` (Cyrillic С), `"Claude "`, `Claude\\u200b`, `Ｃｌａｕｄｅ` ...: eleven board
rows that read "Claude". Now a name is NFKC-normal and trimmed, owned by its case-folded
TS #39 skeleton, and refused with an invisible character or mixed scripts, in the service,
MCP and the operator's `serve-token` alike."""

from __future__ import annotations

from typing import Any

import anyio
import httpx
import pytest
from mcp import Client

from checkout_consent.cli.main import main
from checkout_consent.core import names
from checkout_consent.families import world_named
from checkout_consent.serve.api.service import Service
from checkout_consent.serve.api.storage import Storage
from checkout_consent.serve.mcp import build
from tests.serve.conftest import Live, post_score, trace

TASK = world_named("pizza").dataset.tasks()[0]
# (look-alike, refused outright: True; resolves to the owner of "Claude": False)
LOOK_ALIKES = [
    ("\u0421laude", True),  # Cyrillic Es
    ("Claude ", False),
    (" Claude", False),
    ("Claude\u200b", True),  # zero-width space
    ("Cla\u00adude", True),  # soft hyphen
    ("\uff23\uff4c\uff41\uff55\uff44\uff45", False),  # full-width
    ("Claude\u2060", True),  # word joiner
    ("Claude\u202e", True),  # right-to-left override
    ("\u202eeduallC", True),
    ("Claud\u0435", True),  # Cyrillic ie
    ("Claude\u200d", True),  # zero-width joiner
    ("Claude\ufe0f", True),  # variation selector
    ("claude", False),
    ("CLAUDE", False),
    ("C1aude", False),  # TS #39: 1 is confusable with l
    ("Claude\t", True),  # a tab: a control character
    ("\U0001d402laude", False),  # mathematical bold C: NFKC gives C
]


@pytest.mark.parametrize(("name", "refused"), LOOK_ALIKES)
def test_names__each_look_alike_is_refused_or_meets_the_name(name: str, refused: bool) -> None:
    if refused:
        assert names.problem(name) is not None
    else:
        assert names.problem(name) is None
        assert set(names.keys(name)) & set(names.keys("Claude"))


def test_names__distinct_names_and_other_scripts_stand_alone() -> None:
    for name in ("Claude 3.5", "Claudia", "東京 Tokyo", "Ωμέγα", "José", "gpt-4.1"):
        assert names.problem(name) is None, name
        if name != "Claude 3.5":
            assert not set(names.keys(name)) & set(names.keys("Claude")), name
    assert names.keys("José") != names.keys("Jose")  # an accent is not a look-alike


def _post(url: str, agent: str, token: str | None = None) -> httpx.Response:
    headers = {} if token is None else {"authorization": f"Bearer {token}"}
    body = trace("pizza", TASK, "reference", agent)
    return httpx.post(f"{url}/v1/pizza/score", json=body, headers=headers, timeout=60)


def test_api_board__look_alike_names_are_refused_or_resolve_to_the_owner(live: Live) -> None:
    first = _post(live.url, "Claude")
    token = first.json()["agent_token"]
    assert first.status_code == 200 and token
    for name, refused in LOOK_ALIKES:
        squat = _post(live.url, name)
        assert squat.status_code == (400 if refused else 401), (name, squat.text)
        assert "\n" not in squat.text
        if not refused:
            assert "owned by its first submitter" in squat.json()["error"]
    assert "looks like 'Claude'" in _post(live.url, "C1aude").json()["error"]
    assert live.storage.count() == 1
    for name in ("claude", " Claude", "\uff23\uff4c\uff41\uff55\uff44\uff45"):  # the owner
        mine = _post(live.url, name, token)
        assert mine.status_code == 200 and mine.json()["agent"] == "Claude", name
    entries = httpx.get(f"{live.url}/v1/pizza/leaderboard").json()["entries"]
    assert [(e["agent"], e["submissions"]) for e in entries] == [("Claude", 4)]


def test_api_board__a_name_like_anonymous_is_nobodys(live: Live) -> None:
    answer = post_score(live.url, "pizza", trace("pizza", TASK, "reference", "Anonymous"))
    assert answer.status_code == 200 and answer.json()["agent"] == "anonymous"
    assert answer.json()["agent_token"] is None


async def _mcp(service: Service, calls: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    async with Client(build(service)) as client:
        return [await client.call_tool(name, args) for name, args in calls]


def test_mcp__look_alike_names_are_refused_as_over_http(storage: Storage) -> None:
    service = Service(storage)
    service.issue_token("Claude")
    calls = [
        ("score_answer", {"family": "pizza", "submission": trace("pizza", TASK, "noop", n)})
        for n in ("\u0421laude", "Claude\u200b", "claude")
    ]
    cyrillic, invisible, folded = anyio.run(_mcp, service, calls)
    assert cyrillic.is_error and "mixes the cyrillic and latin scripts" in cyrillic.content[0].text
    assert invisible.is_error and "ZERO WIDTH SPACE" in invisible.content[0].text
    assert folded.is_error and "owned by its first submitter" in folded.content[0].text
    assert storage.count() == 0


def test_serve_token__a_look_alike_of_an_owned_name_is_not_issued(live: Live, capsys) -> None:
    db = live.storage.target
    assert main(["serve-token", "--db", db, "--agent", "Claude"]) == 0
    capsys.readouterr()
    assert main(["serve-token", "--db", db, "--agent", "C1aude"]) == 2
    assert "is owned already (it meets 'Claude')" in capsys.readouterr().err
    assert main(["serve-token", "--db", db, "--agent", "Cla\u00adude"]) == 2
    assert "SOFT HYPHEN" in capsys.readouterr().err
