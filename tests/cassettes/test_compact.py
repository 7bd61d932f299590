"""The compact cassette format without Inspect: stable digests, a conversation stored once,
a miss explained down to the message, and hostile files refused in one line."""

import gzip
import hashlib
import json
from pathlib import Path

import pytest
from vcr.request import Request

from checkout_consent.cassettes import compact, store
from checkout_consent.cassettes.load import CassetteRefused
from checkout_consent.cassettes.match import (
    RUN_UNIT_HEADER,
    canonical_body,
    message_digests,
    parts,
    request_key,
)
from checkout_consent.cassettes.session import first_difference, played

URL = "http://127.0.0.1:47823/v1/chat/completions"
TOOLS = [{"type": "function", "function": {"name": "view_state", "parameters": {}}}]


def _body(turns: int, tools: list | None = None) -> dict:
    messages = [{"role": "developer", "content": "Run the store."}]
    for t in range(turns):
        messages += [
            {"role": "user", "content": f"Day {t + 1} of 5."},
            {"role": "assistant", "content": None, "tool_calls": [{"id": f"c{t}"}]},
        ]
    return {"model": "m", "messages": messages, "tools": TOOLS if tools is None else tools}


def _request(body: dict, unit: str = "seed-0-1") -> Request:
    headers = {RUN_UNIT_HEADER: unit, "content-type": "application/json"}
    return Request("POST", URL, json.dumps(body).encode(), headers)


def _response(text: str) -> dict:
    return {
        "status": {"code": 200, "message": "OK"},
        "headers": {"content-type": ["application/json"]},
        "body": {"string": text.encode()},
    }


def _unit(turns: int = 3) -> compact.Unit:
    pairs = [(_request(_body(t)), _response(f'{{"turn": {t}}}')) for t in range(turns)]
    return compact.pack("seed-0-1", pairs)


def test_body_digest__is_sha256_of_the_canonical_json_whatever_the_spacing():
    body = _body(2)
    spaced = json.dumps(body, indent=3).encode()
    want = hashlib.sha256(
        json.dumps(body, sort_keys=True, separators=(",", ":")).encode()
    ).hexdigest()
    assert parts(canonical_body(spaced)).digest == want
    assert request_key(_request(body))[3] == want  # what replay matches
    assert _unit(3).requests[2].digest == want


def test_message_digests__a_conversation_is_stored_once_and_expands_back():
    unit = _unit(4)
    assert [(r.keep, len(r.add)) for r in unit.requests] == [(0, 1), (1, 2), (3, 2), (5, 2)]
    for i in range(4):
        want = message_digests(_body(i)["messages"])
        assert compact.messages_of(unit, i) == want


def _two_units() -> list[compact.Unit]:
    other = [(_request(_body(0), "seed-1-1"), _response("{}"))]
    return [_unit(), compact.pack("seed-1-1", other)]


def test_pack__is_byte_stable_and_reads_back_the_same(tmp_path: Path):
    first, second = compact.dumps(_two_units()), compact.dumps(_two_units())
    assert first == second and compact.loads(first) == _two_units()
    data = json.loads(first)
    assert len(data["frames"]) == 1  # the units share their frame: stored once
    assert [u["unit"] for u in data["units"]] == ["seed-0-1", "seed-1-1"]
    path = store.write_cassette(tmp_path, _two_units()[::-1])  # written sorted by unit
    assert path.name == store.CASSETTE and store.read_compact(path) == _two_units()


def test_played__serves_bodiless_requests_that_match_the_live_ones():
    unit = _unit(2)
    requests, responses = played(unit)
    assert request_key(requests[1]) == request_key(_request(_body(1)))
    assert responses[1]["body"]["string"] == b'{"turn": 1}'


def test_pack__a_growing_conversation_grows_the_file_linearly():
    def size(turns: int) -> int:
        return len(gzip.compress(compact.dumps([_unit(turns)]).encode()))

    grow = [size(n + 20) - size(n) for n in (20, 60)]  # 20 more turns, early and late
    assert grow[1] < 1.5 * grow[0], grow


@pytest.mark.parametrize(
    "live, want",
    [
        (_body(2), "first differing message: 3"),
        ({**_body(2), "tools": []}, "field(s) tools differ"),
        ({**_body(2), "messages": _body(2)["messages"][:4]}, "the recording has message 4"),
    ],
)
def test_first_difference__points_at_the_message_or_field(live, want):
    unit = _unit(3)
    if want.startswith("first"):  # a different day 2 message
        live["messages"][3] = {"role": "user", "content": "Day 2, forged."}
    line = first_difference(unit, 2, _request(live))
    assert want in line, line
    assert "Day 2, forged." in line if want.startswith("first") else True


def test_first_difference__names_a_missing_unit_or_a_request_past_the_end():
    assert "no recording of this run unit" in first_difference(None, 0, _request(_body(1)))
    assert "ends after 3 request(s)" in first_difference(_unit(3), 3, _request(_body(4)))


def _resealed(entry: dict, frames: list) -> dict:
    frame = compact.Frame.model_validate(frames[entry["frame"]])
    return {**entry, "check": compact.seal(entry, frame, "seed-0-1")}


def _edit(data: dict, case: str) -> str:
    requests = data["units"][0]["requests"]
    first = requests[1]
    edits = {
        "a changed response": lambda: first["response"].update(body='{"turn": 99}'),
        "a changed digest": lambda: first.update(digest="0" * 64),
        "a changed message list": lambda: first.update(add=first["add"][::-1]),
        "a kept secret header": lambda: requests.__setitem__(
            1, _resealed({**first, "headers": {"authorization": "x"}}, data["frames"])
        ),
        "a keep past the request before": lambda: requests.__setitem__(
            1, _resealed({**first, "keep": 9}, data["frames"])
        ),
        "a frame that is not there": lambda: first.update(frame=7),
        "a string status": lambda: first["response"].update(status="200"),
        "a short digest": lambda: first.update(digest="abc"),
        "an unknown field": lambda: first.update(note="x"),
        "a unit twice": lambda: data["units"].append(data["units"][0]),
        "a request moved to another unit": lambda: data["units"][1]["requests"].append(first),
        "no requests": lambda: data["units"][0].update(requests=[]),
    }
    edits[case]()
    return json.dumps(data)


REFUSALS = {
    "a changed response": "unit seed-0-1 request 1: its stored check does not match",
    "a changed digest": "unit seed-0-1 request 1: its stored check does not match",
    "a changed message list": "unit seed-0-1 request 1: its stored check does not match",
    "a kept secret header": "unit seed-0-1 request 1 holds header 'authorization'",
    "a keep past the request before": "request 1 keeps 9 message(s); the request before had 1",
    "a frame that is not there": "unit seed-0-1 request 1 names frame 7; the cassette has 1",
    "a string status": "units.0.requests.1.response.status: Input should be a valid integer",
    "a short digest": "units.0.requests.1.digest: String should match pattern",
    "an unknown field": "units.0.requests.1.note: Extra inputs are not permitted",
    "a unit twice": "holds run unit 'seed-0-1' twice",
    "a request moved to another unit": "unit seed-1-1 request 1: its stored check",
    "no requests": "units.0.requests: List should have at least 1 item",
    "a NaN": "is not valid cassette JSON",
    "deep nesting": "is not valid cassette JSON",
    "a list": "is not a compact cassette",
    "not UTF-8": "is not UTF-8 text",
}


@pytest.mark.parametrize("case", sorted(REFUSALS))
def test_read_compact__refuses_a_hostile_cassette_in_one_line_naming_it(tmp_path, case):
    path = store.write_cassette(tmp_path, _two_units())
    data = json.loads(gzip.decompress(path.read_bytes()))
    text = {
        "a NaN": compact.dumps(_two_units()).replace('"keep": 1', '"keep": NaN'),
        "deep nesting": "[" * 100_000,
        "a list": "[1, 2]",
    }.get(case) or (None if case == "not UTF-8" else _edit(data, case))
    raw = b"\xff\xfe{" if text is None else text.encode()
    path.write_bytes(gzip.compress(raw))
    with pytest.raises(CassetteRefused) as refused:
        store.read_compact(path)
    message = str(refused.value)
    assert REFUSALS[case] in message and str(path) in message and "\n" not in message


def test_read_units__refuses_a_cassette_that_unpacks_too_far_in_one_line(tmp_path, monkeypatch):
    path = store.write_cassette(tmp_path, _two_units())
    size = len(gzip.decompress(path.read_bytes()))
    monkeypatch.setattr(store, "MAX_CASSETTE_BYTES", size - 1)
    with pytest.raises(CassetteRefused, match=f"unpacks to more than {size - 1} bytes"):
        store.read_units(tmp_path)
    monkeypatch.setattr(store, "MAX_CASSETTE_BYTES", size)
    assert sorted(store.read_units(tmp_path)) == ["seed-0-1", "seed-1-1"]
