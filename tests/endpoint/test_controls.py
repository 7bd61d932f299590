"""serve-controls: the control agents over the OpenAI and Anthropic wire formats, on
loopback, read by the real SDKs (and by Inspect's real providers)."""

import json
import urllib.error
import urllib.request
from collections.abc import Iterator

import pytest

from checkout_consent.core.controls import SCENARIO_HEADER, Msg
from checkout_consent.endpoint.controls import ControlServer, serving
from checkout_consent.endpoint.wire import anthropic as wire_anthropic
from checkout_consent.endpoint.wire import openai as wire_openai

SYSTEM = "You run an online store."
BRIEF = "Day 1 of 5.\nGood morning."
# The scenario travels in a header, as the suite's solver sends it: never in the text.
SCENARIO = {
    SCENARIO_HEADER: json.dumps(
        {"family": "storefront", "scenario_id": "adversary_v0", "seed": 0, "params": {}}
    )
}


@pytest.fixture(scope="module")
def server() -> Iterator[ControlServer]:
    with serving(port=0) as s:
        yield s


def _post(url: str, body: dict, headers: dict | None = None) -> tuple[int, bytes]:
    headers = SCENARIO if headers is None else headers
    req = urllib.request.Request(
        url, json.dumps(body).encode(), {"content-type": "application/json", **headers}
    )
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as err:
        return err.code, err.read()


def test_serve__openai_sdk_reads_a_control_reply(server: ControlServer):
    import openai  # the SDKs load in seconds: imported by the tests that use them

    client = openai.OpenAI(
        base_url=server.url + "/v1", api_key="placeholder", max_retries=0, default_headers=SCENARIO
    )
    out = client.chat.completions.create(
        model="storefront-half_value",  # its first call is set_price (the oracle's: an order)
        messages=[{"role": "system", "content": SYSTEM}, {"role": "user", "content": BRIEF}],
    )
    call = out.choices[0].message.tool_calls[0]
    assert (call.id, call.function.name) == ("call_0", "set_price")
    assert out.choices[0].finish_reason == "tool_calls"
    assert out.usage.prompt_tokens > 0


def test_serve__same_request_gives_byte_identical_answers(server: ControlServer):
    body = {"model": "storefront-oracle", "messages": [{"role": "user", "content": BRIEF}]}
    first, second = (_post(server.url + "/v1/chat/completions", body) for _ in range(2))
    assert first[0] == 200 and first == second


@pytest.mark.parametrize("stream", [False, True])
def test_serve__anthropic_sdk_reads_a_reply_streamed_or_not(server: ControlServer, stream):
    import anthropic

    client = anthropic.Anthropic(
        base_url=server.url, api_key="placeholder", max_retries=0, default_headers=SCENARIO
    )
    kwargs = {
        "model": "storefront-half_value",
        "max_tokens": 100,
        "system": SYSTEM,
        "messages": [{"role": "user", "content": BRIEF}],
    }
    if stream:
        with client.messages.stream(**kwargs) as s:
            message = s.get_final_message()
    else:
        message = client.messages.create(**kwargs)
    block = message.content[0]
    assert (block.type, block.id, block.name) == ("tool_use", "call_0", "set_price")
    assert block.input["product_id"] and message.stop_reason == "tool_use"


def test_serve__unknown_control_is_a_400_naming_the_known_ones(server: ControlServer):
    status, raw = _post(
        server.url + "/v1/chat/completions", {"model": "storefront-nobody", "messages": []}
    )
    assert status == 400 and b"storefront-oracle" in raw


@pytest.mark.parametrize(
    "headers, why",
    [
        ({}, b"no x-cc-scenario header"),
        ({SCENARIO_HEADER: "{not json"}, b"bad x-cc-scenario header"),
        (
            {SCENARIO_HEADER: json.dumps({"family": "pizza", "scenario_id": "x", "seed": 0})},
            b"control/storefront-oracle is a storefront control; it cannot play pizza",
        ),
        (
            {SCENARIO_HEADER: json.dumps({"family": "nowhere", "scenario_id": "x", "seed": 0})},
            b"unknown world 'nowhere'",
        ),
    ],
)
def test_serve__a_control_needs_its_scenario_from_the_header(server: ControlServer, headers, why):
    status, raw = _post(
        server.url + "/v1/chat/completions",
        {"model": "storefront-oracle", "messages": [{"role": "user", "content": BRIEF}]},
        headers,
    )
    assert status == 400 and why in raw, raw


def test_serve__a_familys_control_plays_the_policy_of_the_samples_world(server: ControlServer):
    """`storefront-oracle` keeps its family's name in storefront_v1 (a world of its own) and
    plays that world's oracle on its samples: the first call is one only storefront_v1 has."""
    from checkout_consent.families import world_named

    first, own = world_named("storefront"), world_named("storefront_v1")
    v1 = {
        SCENARIO_HEADER: json.dumps({"family": own.name, "scenario_id": "adversary_v1", "seed": 0})
    }
    body = {"model": "storefront-oracle", "messages": [{"role": "user", "content": BRIEF}]}
    calls = []
    for headers in (SCENARIO, v1):
        status, raw = _post(server.url + "/v1/chat/completions", body, headers)
        assert status == 200, raw
        calls.append(json.loads(raw)["choices"][0]["message"]["tool_calls"][0]["function"]["name"])
    assert calls[0] in first.actions and calls[1] in own.actions
    assert calls[1] not in first.actions  # storefront_v1's own oracle, not storefront's


def test_wire_openai__error_prefixed_tool_result_is_a_failed_call():
    msgs = wire_openai.transcript(
        {
            "messages": [
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "id": "call_0",
                            "type": "function",
                            "function": {"name": "place_order", "arguments": '{"quantity": 3}'},
                        }
                    ],
                },
                {"role": "tool", "tool_call_id": "call_0", "content": "Error: no such supplier"},
            ]
        }
    )
    assert msgs[0].calls[0].args == {"quantity": 3}
    assert msgs[1] == Msg("tool", "no such supplier", call_id="call_0", error=True)


def test_wire_anthropic__a_user_turn_gives_tool_results_then_text():
    msgs = wire_anthropic.transcript(
        {
            "system": [{"type": "text", "text": SYSTEM}],
            "messages": [
                {
                    "role": "user",
                    "content": [
                        {"type": "tool_result", "tool_use_id": "call_0", "content": "ok"},
                        {
                            "type": "tool_result",
                            "tool_use_id": "call_1",
                            "is_error": True,
                            "content": [{"type": "text", "text": "bad"}],
                        },
                        {"type": "text", "text": "Day 2 of 5."},
                    ],
                }
            ],
        }
    )
    assert [m.role for m in msgs] == ["system", "tool", "tool", "user"]
    assert msgs[2].error and msgs[2].text == "bad" and msgs[3].text == "Day 2 of 5."


@pytest.mark.inspect
def test_serve__inspect_openai_provider_scores_like_the_control_provider(
    server: ControlServer, tmp_path
):
    from inspect_ai import eval as inspect_eval

    def record(model: str, **kwargs) -> dict:
        log = inspect_eval(
            "checkout_consent/storefront",
            model=model,
            task_args={"seeds": "2"},
            log_dir=str(tmp_path),
            display="none",
            **kwargs,
        )[0]
        assert log.status == "success", log.error
        return next(iter(log.samples[0].scores.values())).metadata["record"]  # domain only

    wire = record(
        "openai/storefront-gullible",
        model_base_url=server.url + "/v1",
        model_args={"responses_api": False, "api_key": "placeholder"},
    )
    direct = record("control/storefront-gullible")
    assert wire == direct
    assert wire["traps_total"] > 0


def test_serve_controls_verb__serves_on_the_port_it_announces():
    import re
    import subprocess
    import sys

    proc = subprocess.Popen(
        [sys.executable, "-m", "checkout_consent.cli", "serve-controls", "--port", "0"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        line = proc.stdout.readline()
        url = re.search(r"http://127\.0\.0\.1:\d+", line).group(0)
        status, raw = _post(
            url + "/v1/chat/completions",
            {"model": "storefront-idle", "messages": [{"role": "user", "content": BRIEF}]},
        )
        assert status == 200 and json.loads(raw)["choices"][0]["message"]["tool_calls"]
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def _raw(
    server: ControlServer, body: bytes, length: str | None = "auto", shut: bool = False
) -> tuple[int, dict]:
    """POST raw bytes with the Content-Length given ("auto": the true one, None: none)."""
    import http.client
    import socket

    conn = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=20)
    try:
        conn.putrequest("POST", "/v1/chat/completions")
        conn.putheader("content-type", "application/json")
        conn.putheader(SCENARIO_HEADER, SCENARIO[SCENARIO_HEADER])
        if length is not None:
            conn.putheader("content-length", str(len(body)) if length == "auto" else length)
        conn.endheaders()
        conn.send(body)
        if shut:
            conn.sock.shutdown(socket.SHUT_WR)
        response = conn.getresponse()
        return response.status, json.loads(response.read())
    finally:
        conn.close()


def _bad_bodies() -> dict[str, tuple[bytes, str | None, int]]:
    """case -> (body, Content-Length header, the status it must get)."""
    ok = {"model": "storefront-oracle", "messages": [{"role": "user", "content": BRIEF}]}

    def js(value: object) -> bytes:
        return json.dumps(value).encode()

    return {
        "a list": (js([ok]), "auto", 400),
        "a string": (js("hello"), "auto", 400),
        "not json": (b"{model: oracle", "auto", 400),
        "no model": (js({"messages": ok["messages"]}), "auto", 400),
        "model not a string": (js({**ok, "model": ["x"]}), "auto", 400),
        "no messages": (js({"model": "storefront-oracle"}), "auto", 400),
        "a message not an object": (js({**ok, "messages": ["hi"]}), "auto", 400),
        "content of the wrong type": (
            js({**ok, "messages": [{"role": "user", "content": 5}]}),
            "auto",
            400,
        ),
        "a tool call without a function": (
            js({**ok, "messages": [{"role": "assistant", "tool_calls": [{"id": "c"}]}]}),
            "auto",
            400,
        ),
        "absurd nesting": (b"[" * 200_000 + b"]" * 200_000, "auto", 400),
        "nesting past the limit": (js({**ok, "x": json.loads("[" * 100 + "]" * 100)}), "auto", 400),
        "no content-length": (js(ok), None, 411),
        "content-length not a number": (js(ok), "abc", 400),
        "negative content-length": (js(ok), "-5", 400),
        "oversized": (b"", str(64 * 1024 * 1024), 413),
    }


@pytest.mark.parametrize("case", sorted(_bad_bodies()))
def test_serve__a_wrong_request_gets_a_4xx_json_error_and_the_server_goes_on(
    server: ControlServer, case, capfd
):
    body, length, status = _bad_bodies()[case]
    got, error = _raw(server, body, length)
    assert got == status and error["type"] == "error" and error["error"]["message"]
    ok = {"model": "storefront-idle", "messages": [{"role": "user", "content": BRIEF}]}
    assert _post(server.url + "/v1/chat/completions", ok)[0] == 200
    assert "Traceback" not in capfd.readouterr().err


def test_serve__a_body_shorter_than_its_content_length_is_a_400(server: ControlServer):
    got, error = _raw(server, b'{"model": "storefront-oracle"', length="100", shut=True)
    assert got == 400 and "ended after 29 of 100 bytes" in error["error"]["message"]


def test_serve__holds_200_concurrent_requests_with_none_reset(server: ControlServer):
    """A load test on loopback, bounded in count (200) and time (a hang guard)."""
    import threading
    import time
    from concurrent.futures import ThreadPoolExecutor

    body = {"model": "storefront-oracle", "messages": [{"role": "user", "content": BRIEF}]}
    start_line = threading.Barrier(200, timeout=60)

    def one(_: int) -> int:
        start_line.wait()
        return _post(server.url + "/v1/chat/completions", body)[0]

    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=200) as pool:
        statuses = list(pool.map(one, range(200)))  # a reset would raise here
    assert statuses == [200] * 200
    assert time.perf_counter() - start < 120


def _serve_cli(port: str) -> tuple[int, str]:
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-m", "checkout_consent.cli", "serve-controls", "--port", port],
        capture_output=True,
        text=True,
        timeout=120,
    )
    return out.returncode, out.stderr


def test_serve_controls_verb__a_busy_port_is_refused_in_one_line():
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        code, err = _serve_cli(str(taken.getsockname()[1]))
    assert code != 0 and "is in use" in err and len(err.strip().splitlines()) == 1, err


@pytest.mark.parametrize("port", ["70000", "-1", "http"])
def test_serve_controls_verb__an_invalid_port_is_refused_in_one_line(port, capsys):
    from checkout_consent.cli.main import main

    try:
        code = main(["serve-controls", "--port", port])
    except SystemExit as stop:  # argparse refuses what is not a number
        code = stop.code
    err = capsys.readouterr().err
    assert code != 0 and "port" in err and "Traceback" not in err, err
    assert len(err.strip().splitlines()) <= 2, err  # argparse: usage line + message


def test_serve__a_stalled_upload_gets_a_408_not_a_held_thread(monkeypatch):
    import http.client

    from checkout_consent.endpoint import controls

    monkeypatch.setattr(controls, "READ_TIMEOUT_S", 0.5)
    with serving(port=0) as quick:
        conn = http.client.HTTPConnection("127.0.0.1", quick.server_address[1], timeout=20)
        conn.putrequest("POST", "/v1/chat/completions")
        conn.putheader("content-length", "100")
        conn.endheaders()
        conn.send(b'{"model": ')  # and then nothing more
        response = conn.getresponse()
        assert response.status == 408 and b"did not arrive" in response.read()
        conn.close()
