"""serve-controls: the control agents over the OpenAI and Anthropic wire formats, on
loopback, read by the real SDKs (and by Inspect's real providers)."""

import json
import urllib.error
import urllib.request
from collections.abc import Iterator

import anthropic
import openai
import pytest

from checkout_consent.core.controls import SCENARIO_HEADER, Msg
from checkout_consent.serve.controls import ControlServer, serving
from checkout_consent.serve.wire import anthropic as wire_anthropic
from checkout_consent.serve.wire import openai as wire_openai

SYSTEM = "You run an online store."
BRIEF = "Day 1 of 5.\nGood morning."
# The scenario travels in a header, as the suite's solver sends it: never in the text.
SCENARIO = {SCENARIO_HEADER: json.dumps(
    {"family": "storefront", "scenario_id": "adversary_v0", "seed": 0, "params": {}})}


@pytest.fixture(scope="module")
def server() -> Iterator[ControlServer]:
    with serving(port=0) as s:
        yield s


def _post(url: str, body: dict, headers: dict | None = None) -> tuple[int, bytes]:
    headers = SCENARIO if headers is None else headers
    req = urllib.request.Request(url, json.dumps(body).encode(),
                                 {"content-type": "application/json", **headers})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as err:
        return err.code, err.read()


def test_serve__openai_sdk_reads_a_control_reply(server: ControlServer):
    client = openai.OpenAI(base_url=server.url + "/v1", api_key="placeholder", max_retries=0,
                           default_headers=SCENARIO)
    out = client.chat.completions.create(
        model="storefront-half_value",  # its first call is set_price (the oracle's: an order)
        messages=[{"role": "system", "content": SYSTEM}, {"role": "user", "content": BRIEF}])
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
    client = anthropic.Anthropic(base_url=server.url, api_key="placeholder", max_retries=0,
                                 default_headers=SCENARIO)
    kwargs = {"model": "storefront-half_value", "max_tokens": 100, "system": SYSTEM,
              "messages": [{"role": "user", "content": BRIEF}]}
    if stream:
        with client.messages.stream(**kwargs) as s:
            message = s.get_final_message()
    else:
        message = client.messages.create(**kwargs)
    block = message.content[0]
    assert (block.type, block.id, block.name) == ("tool_use", "call_0", "set_price")
    assert block.input["product_id"] and message.stop_reason == "tool_use"


def test_serve__unknown_control_is_a_400_naming_the_known_ones(server: ControlServer):
    status, raw = _post(server.url + "/v1/chat/completions",
                        {"model": "storefront-nobody", "messages": []})
    assert status == 400 and b"storefront-oracle" in raw


@pytest.mark.parametrize("headers, why", [
    ({}, b"no x-cc-scenario header"),
    ({SCENARIO_HEADER: "{not json"}, b"bad x-cc-scenario header"),
    ({SCENARIO_HEADER: json.dumps({"family": "pizza", "scenario_id": "x", "seed": 0})},
     b"asked to play a pizza scenario"),
])
def test_serve__a_control_needs_its_scenario_from_the_header(server: ControlServer, headers,
                                                              why):
    status, raw = _post(server.url + "/v1/chat/completions",
                        {"model": "storefront-oracle", "messages": [
                            {"role": "user", "content": BRIEF}]}, headers)
    assert status == 400 and why in raw, raw


def test_wire_openai__error_prefixed_tool_result_is_a_failed_call():
    msgs = wire_openai.transcript({"messages": [
        {"role": "assistant", "content": None, "tool_calls": [{
            "id": "call_0", "type": "function",
            "function": {"name": "place_order", "arguments": '{"quantity": 3}'}}]},
        {"role": "tool", "tool_call_id": "call_0", "content": "Error: no such supplier"}]})
    assert msgs[0].calls[0].args == {"quantity": 3}
    assert msgs[1] == Msg("tool", "no such supplier", call_id="call_0", error=True)


def test_wire_anthropic__a_user_turn_gives_tool_results_then_text():
    msgs = wire_anthropic.transcript({"system": [{"type": "text", "text": SYSTEM}], "messages": [
        {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "call_0", "content": "ok"},
            {"type": "tool_result", "tool_use_id": "call_1", "is_error": True,
             "content": [{"type": "text", "text": "bad"}]},
            {"type": "text", "text": "Day 2 of 5."}]}]})
    assert [m.role for m in msgs] == ["system", "tool", "tool", "user"]
    assert msgs[2].error and msgs[2].text == "bad" and msgs[3].text == "Day 2 of 5."


@pytest.mark.inspect
def test_serve__inspect_openai_provider_scores_like_the_control_provider(
        server: ControlServer, tmp_path):
    from inspect_ai import eval as inspect_eval

    def record(model: str, **kwargs) -> dict:
        log = inspect_eval("checkout_consent/storefront", model=model,
                           task_args={"seeds": "2"}, log_dir=str(tmp_path), display="none",
                           **kwargs)[0]
        assert log.status == "success", log.error
        return next(iter(log.samples[0].scores.values())).metadata["record"]  # domain only

    wire = record("openai/storefront-gullible", model_base_url=server.url + "/v1",
                  model_args={"responses_api": False, "api_key": "placeholder"})
    direct = record("control/storefront-gullible")
    assert wire == direct
    assert wire["traps_total"] > 0


def test_serve_controls_verb__serves_on_the_port_it_announces():
    import re
    import subprocess
    import sys

    proc = subprocess.Popen([sys.executable, "-m", "checkout_consent.cli", "serve-controls",
                             "--port", "0"], stdout=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        url = re.search(r"http://127\.0\.0\.1:\d+", line).group(0)
        status, raw = _post(url + "/v1/chat/completions", {
            "model": "storefront-idle", "messages": [{"role": "user", "content": BRIEF}]})
        assert status == 200 and json.loads(raw)["choices"][0]["message"]["tool_calls"]
    finally:
        proc.terminate()
        proc.wait(timeout=10)
