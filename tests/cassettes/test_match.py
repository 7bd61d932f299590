"""Request matching, scrubbing and the cassette file format, without Inspect."""

import gzip
import json
from pathlib import Path

import pytest
from vcr.cassette import Cassette
from vcr.request import Request

from checkout_consent.cassettes import load, store
from checkout_consent.cassettes.match import (
    RUN_UNIT_HEADER,
    describe,
    match,
    request_key,
    scrub_request,
    scrub_response,
)
from checkout_consent.cassettes.session import UnitPersister

URL = "http://127.0.0.1:47823/v1/chat/completions"


def request(body: object, unit: str = "seed-0-1", **headers: str) -> Request:
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    return Request("POST", URL, raw, {RUN_UNIT_HEADER: unit, **headers})


def response(text: str, code: int = 200) -> dict:
    return {
        "status": {"code": code, "message": "OK"},
        "headers": {
            "content-type": ["application/json"],
            "set-cookie": ["s=1"],
            "openai-organization": ["org-x"],
        },
        "body": {"string": text.encode()},
    }


def test_match__canonical_json_ignores_key_order_and_spacing():
    a = request(b'{"model": "m", "messages": [{"role": "user", "content": "hi"}]}')
    b = request(b'{"messages":[{"content":"hi","role":"user"}],"model":"m"}')
    assert match(a, b)


def test_match__different_body_run_unit_or_url_never_matches():
    base = request({"model": "m", "n": 1})
    assert not match(base, request({"model": "m", "n": 2}))
    assert not match(base, request({"model": "m", "n": 1}, unit="seed-0-2"))
    other = Request(
        "POST",
        URL + "?x=1",
        json.dumps({"model": "m", "n": 1}).encode(),
        {RUN_UNIT_HEADER: "seed-0-1"},
    )
    assert not match(base, other)


def test_match__a_loopback_port_is_not_part_of_the_request():
    """Parts of one ladder run recorded on servers at different loopback ports are joined by
    `cassettes merge` and replayed under the first part's base URL: they must match. A
    port of a remote host still tells requests apart."""
    body = json.dumps({"model": "m", "n": 1}).encode()

    def at(url: str) -> Request:
        return Request("POST", url, body, {RUN_UNIT_HEADER: "seed-0-1"})

    for host in ("127.0.0.1", "localhost", "[::1]"):
        assert match(at(f"http://{host}:8083/v1/chat"), at(f"http://{host}:8093/v1/chat"))
        assert not match(at(f"http://{host}:8083/v1/chat"), at(f"http://{host}:8083/v2/chat"))
    assert not match(at("http://127.0.0.1:8083/v1/chat"), at("http://10.0.0.1:8083/v1/chat"))
    assert not match(at("https://api.example:443/v1/chat"), at("https://api.example:8443/v1/chat"))


def test_scrub_request__keeps_only_allow_listed_headers():
    r = scrub_request(
        request(
            {"model": "m"},
            authorization="Bearer sk-secret",
            **{
                "x-api-key": "sk-ant-secret",
                "x-irid": "random",
                "user-agent": "OpenAI/Python",
                "cookie": "c=1",
                "OpenAI-Organization": "org-1",
                "content-type": "json",
            },
        )
    )
    assert {k.lower() for k in r.headers} == {"content-type", RUN_UNIT_HEADER}


def test_scrub_response__drops_rate_limits_and_keeps_only_the_content_type():
    assert scrub_response(response("{}", code=429)) is None
    assert scrub_response(response("{}", code=503)) is None
    kept = scrub_response(response("{}"))
    assert kept is not None and kept["headers"] == {"content-type": ["application/json"]}


def test_describe__names_unit_url_and_last_message():
    line = describe(request({"messages": [{"role": "user", "content": "Day 3 of 5."}]}))
    assert "seed-0-1" in line and URL in line and "Day 3 of 5." in line


def _cassette(n_units: int, per_unit: int) -> tuple[Cassette, list[Request]]:
    cass = Cassette("mem", match_on=[match], record_mode="none")
    incoming = []
    for u in range(n_units):
        for i in range(per_unit):
            body = {
                "model": "m",
                "messages": [
                    {"role": "user", "content": "x" * 8000},
                    {"role": "user", "content": f"turn {i}"},
                ],
            }
            cass.data.append((request(body, unit=f"s{u}-1"), response(f"u{u} t{i}")))
            incoming.append(request(body, unit=f"s{u}-1"))
    cass.rewound = True
    return cass, incoming


def test_matcher__parses_each_body_once_with_hundreds_of_requests(monkeypatch):
    """What keeps matching linear: a request's key (its canonical body) is computed once and
    cached, however many recorded requests it is compared with (600 here, worst order).
    The speed itself is measured in benchmarks/replay.py, not asserted."""
    from checkout_consent.cassettes import match as match_module

    calls = []
    real = match_module.canonical_body
    monkeypatch.setattr(match_module, "canonical_body", lambda body: calls.append(1) or real(body))
    cass, incoming = _cassette(n_units=20, per_unit=30)  # 600 interactions of ~8 kB
    for r in reversed(incoming):
        assert cass.can_play_response_for(r)
        assert cass.play_response(r)["body"]["string"].decode().startswith("u")
    assert cass.all_played
    assert len(calls) == 2 * len(incoming)  # each recorded and each incoming request once


def test_identical_requests__replay_in_arrival_order():
    cass = Cassette("mem", match_on=[match], record_mode="none")
    for i in range(3):
        cass.data.append((request({"model": "m"}), response(str(i))))
    cass.rewound = True
    played = [cass.play_response(request({"model": "m"}))["body"]["string"] for _ in range(3)]
    assert played == [b"0", b"1", b"2"]


def test_persister__splits_by_run_unit_and_joins_back(tmp_path: Path):
    reqs = [request({"n": i}, unit=f"seed-{i % 2}-1") for i in range(4)]
    resps = [scrub_response(response(str(i))) for i in range(4)]
    UnitPersister.save_cassette(tmp_path, {"requests": reqs, "responses": resps})
    assert [p.name for p in store.cassette_files(tmp_path)] == [store.CASSETTE]
    units = store.read_units(tmp_path)
    assert sorted(units) == ["seed-0-1", "seed-1-1"] and len(units["seed-1-1"].requests) == 2
    loaded_reqs, loaded_resps = UnitPersister.load_cassette(tmp_path)
    assert sorted(match_key(r) for r in loaded_reqs) == sorted(match_key(r) for r in reqs)
    assert sorted(r["body"]["string"] for r in loaded_resps) == [b"0", b"1", b"2", b"3"]


def match_key(r: Request) -> tuple:
    return request_key(scrub_request(r))


def test_unit_stem__is_a_safe_file_name():
    assert store.unit_stem("seed-3-1") == "seed-3-1"
    assert store.unit_stem("a/b c-2") == "a_b_c-2"


def test_model_slug__is_a_safe_directory_name():
    assert store.model_slug("openai/storefront-oracle") == "openai--storefront-oracle"
    assert store.model_slug("openai/azure/gpt 4o:latest") == "openai--azure--gpt-4o-latest"


def test_persister__warns_about_requests_without_a_run_unit(tmp_path: Path):
    bare = Request("POST", URL, b"{}", {"content-type": "application/json"})
    with pytest.warns(UserWarning, match="no x-cc-run-unit header"):
        UnitPersister.save_cassette(
            tmp_path, {"requests": [bare], "responses": [scrub_response(response("{}"))]}
        )
    assert list(store.read_units(tmp_path)) == ["untagged"]


def test_read_gzip__refuses_a_file_that_unpacks_too_far(tmp_path: Path):
    path = tmp_path / "seed-0-1.json.gz"
    path.write_bytes(gzip.compress(b"x" * 5000))
    with pytest.raises(load.CassetteRefused, match="unpacks to more than 4096 bytes"):
        load.read_gzip(path, 4096)


def test_no_network__refuses_every_ip_connection_and_restores(monkeypatch):
    import socket

    from checkout_consent.cassettes.session import no_network

    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        with no_network(), pytest.raises(ConnectionRefusedError, match="network blocked"):
            socket.create_connection(server.getsockname(), timeout=2)
        socket.create_connection(server.getsockname(), timeout=2).close()


def test_placeholder_keys__lends_a_key_only_when_none_is_set(monkeypatch):
    import os

    from checkout_consent.cassettes.session import PLACEHOLDER_KEY, placeholder_keys

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "mine")
    with placeholder_keys():
        assert os.environ["OPENAI_API_KEY"] == PLACEHOLDER_KEY
        assert os.environ["ANTHROPIC_API_KEY"] == "mine"
    assert "OPENAI_API_KEY" not in os.environ and os.environ["ANTHROPIC_API_KEY"] == "mine"
