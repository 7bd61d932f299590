"""A real scoring server on a free loopback port (uvicorn in a thread), its database, and
saved traces played by the families' controls."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple

import pytest
import uvicorn

from checkout_consent.cli.service import KEEP_ALIVE
from checkout_consent.core.offline import play
from checkout_consent.families import world_named
from checkout_consent.serve.api.app import create_app
from checkout_consent.serve.api.service import Service
from checkout_consent.serve.api.storage import Storage


class Live(NamedTuple):
    url: str
    storage: Storage


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def storage(tmp_path: Path) -> Storage:
    return Storage(str(tmp_path / "submissions.db"))


@contextmanager
def serving(service: Service) -> Iterator[str]:
    """A real server for `service` on a free loopback port; yields its URL."""
    port = free_port()
    config = uvicorn.Config(
        create_app(service),
        host="127.0.0.1",
        port=port,
        log_level="warning",
        backlog=2048,
        timeout_keep_alive=KEEP_ALIVE,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "server did not start"
        time.sleep(0.02)
    url = f"http://127.0.0.1:{port}"
    for key in [k for k in _TOKENS if k[0] == url]:  # a port reused: a new server owns no name
        del _TOKENS[key]
    yield url
    server.should_exit = True
    thread.join(timeout=20)


@pytest.fixture
def live(storage: Storage) -> Iterator[Live]:
    with serving(Service(storage)) as url:
        yield Live(url, storage)


HELDOUT = "heldout-normal-week-0"


@pytest.fixture
def heldout_task(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A held-out grocery brief (as `grocery build heldout` writes one) in a copy of the
    family's data directory, which the dataset reads for the test's duration."""
    from checkout_consent.grocery import dataset
    from checkout_consent.grocery.authoring.build import brief_to_yaml
    from checkout_consent.grocery.authoring.heldout import heldout_brief

    real = dataset.data_dir()
    root = tmp_path / "grocery-data"
    (root / "heldout").mkdir(parents=True)
    for entry in real.iterdir():
        if entry.name != "heldout":
            (root / entry.name).symlink_to(entry)
    brief = heldout_brief(dataset.load_brief("normal-week"), dataset.load_catalog("3.0"), 7, 0)
    assert brief.task_id == HELDOUT
    (root / "heldout" / f"{HELDOUT}.yaml").write_text(brief_to_yaml(brief), encoding="utf-8")
    monkeypatch.setattr(dataset, "data_dir", lambda: root)
    dataset.load_brief.cache_clear()
    yield HELDOUT
    dataset.load_brief.cache_clear()


def trace(
    family_name: str, task: str, control: str, agent: str | None = "tester"
) -> dict[str, Any]:
    """A saved trace as a client posts it: the agent's calls of a control's offline run,
    played by the world the task belongs to, with the solver's context trims (a long
    episode's trace carries them; the closing calls the grader adds itself); anonymous
    (no agent card) when `agent` is None."""
    own = world_named(family_name)
    played = play(own, own.dataset.task(task), own.controls[control])
    kept = [c for c in played.calls if c.origin == "agent" or c.tool == own.episode.trim_tool]
    return {
        "task": task,
        "calls": [{"tool": c.tool, "args": c.args} for c in kept],
        **({} if agent is None else {"agent": {"name": agent}}),
    }


_TOKENS: dict[tuple[str, str], str] = {}  # (service url, agent name) -> its owner's token


def post_score(url: str, family: str, body: Any = None, **options: Any) -> Any:
    """POST /v1/{family}/score as the agent's owner: the token the name's first submission
    was answered with is sent with every later one (`json=` bodies; `content=` posts
    carry the token of `agent` given in options)."""
    import httpx

    agent = options.pop("agent", None) or (
        (body.get("agent") or {}).get("name", "anonymous") if isinstance(body, dict) else None
    )
    headers = dict(options.pop("headers", {}))
    token = _TOKENS.get((url, str(agent)))
    if token is not None:
        headers["authorization"] = f"Bearer {token}"
    if body is not None:
        options["json"] = body
    answer = httpx.post(f"{url}/v1/{family}/score", headers=headers, timeout=60, **options)
    if answer.status_code == 200 and answer.json().get("agent_token"):
        _TOKENS[(url, str(agent))] = answer.json()["agent_token"]
    return answer
