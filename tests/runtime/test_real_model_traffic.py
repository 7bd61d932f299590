"""What a real model breaks, on llama-server traffic (tests/runtime/llama/traffic.json:
captured from a real server by tests/runtime/llama/capture.py; its `server.provenance` says
so, or that the bodies were reconstructed from llama.cpp's server source until a capture)
replayed through Inspect's own openai-api provider by a loopback fake: each break is counted
in the record's `diagnostics` block, nothing the model wrote as text is executed or scored,
the run ends cleanly past the context, and a server that stops answering is one clear
sample error."""

import json

import pytest

from checkout_consent.core.diagnostics import text_tool_calls
from checkout_consent.families import world_named
from checkout_consent.runtime.logs import read_log
from checkout_consent.runtime.runner import RunFailed, run_models
from tests.runtime.llama.fake import HANG, recorded, serving

pytestmark = pytest.mark.inspect

MODEL = "openai-api/llama/qwen2.5-coder-0.5b-instruct"
SCRIPT = {  # run unit -> the recorded replies it is served, in order
    "wrong-topping-1-1": ["unknown_tool", "bad_arguments", "text_call"],
    "wrong-topping-2-1": ["empty_reply"],
    "wrong-topping-3-1": ["context_overflow"],
}
LOCAL = {"max_retries": 0, "timeout": 30}


def _run(script, tasks, tmp_path, **eval_args):
    with serving(script) as fake:
        runs = run_models(
            world_named("pizza"),
            [MODEL],
            task_args={"tasks": tasks},
            log_dir=tmp_path,
            model_base_url=fake.url,
            model_args={"api_key": "none", "max_retries": 0},
            **{**LOCAL, **eval_args},
        )
    return runs[0], fake


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    run, fake = _run(
        SCRIPT, "wrong-topping-1,wrong-topping-2,wrong-topping-3", tmp_path_factory.mktemp("logs")
    )
    samples = {f"{s.id}-{s.epoch}": s for s in read_log(run.log_path).samples or []}
    return run, samples, fake


def _record(samples, unit):
    return next(iter(samples[unit].scores.values())).metadata["record"]


def test_traffic__has_llama_servers_fields(played):
    """The replayed bodies are llama-server's: its timings block and cached-token usage."""
    body = json.loads(recorded("text_call")["body"])
    assert "timings" in body and "cache_n" in body["timings"]
    assert "cached_tokens" in body["usage"]["prompt_tokens_details"]


def test_text_tool_call__counted_never_run(played):
    run, samples, _ = played
    record = _record(samples, "wrong-topping-1-1")
    reply = json.loads(recorded("text_call")["body"])["choices"][0]["message"]["content"]
    assert text_tool_calls(reply) >= 1  # the model wrote its call as text
    assert record["diagnostics"]["text_tool_calls"] == text_tool_calls(reply)
    store = samples["wrong-topping-1-1"].store
    assert store["RunStore:calls"] == []  # nothing the model wrote as text was executed


def test_unknown_tool_and_bad_arguments__counted_refused_before_any_tool(played):
    _, samples, _ = played
    diagnostics = _record(samples, "wrong-topping-1-1")["diagnostics"]
    assert diagnostics["unknown_tools"] == 1
    assert diagnostics["bad_arguments"] == 1
    errors = [m.error for m in samples["wrong-topping-1-1"].messages if m.role == "tool"]
    assert [e.type for e in errors] == ["parsing", "parsing"]


def test_empty_reply__counted(played):
    _, samples, _ = played
    assert _record(samples, "wrong-topping-2-1")["diagnostics"] == {"empty_replies": 1}


def test_context_overflow__run_ends_cleanly_with_the_servers_reason(played):
    run, samples, fake = played
    sample = samples["wrong-topping-3-1"]
    assert sample.error is None
    reason = _record(samples, "wrong-topping-3-1")["diagnostics"]["context_overflow"]
    body = json.loads(recorded("context_overflow")["body"])["error"]
    assert recorded("context_overflow")["status"] == 400
    assert reason.startswith("the server refused the request: " + body["message"])
    assert f"n_ctx {body['n_ctx']}" in reason
    turns = sample.store["RunStore:generations"]
    assert [t["stop_reason"] for t in turns] == ["context_overflow"]


def test_ordinary_turns__store_no_detail(played):
    """A turn that ended nothing is stored as before this block existed (goldens hold)."""
    _, samples, _ = played
    turns = samples["wrong-topping-1-1"].store["RunStore:generations"]
    assert turns and all("detail" not in t for t in turns)


def test_server_stops_answering__one_line_sample_error(tmp_path):
    with pytest.raises(RunFailed) as caught:
        _run(
            {"wrong-topping-1-1": [HANG]}, "wrong-topping-1", tmp_path, timeout=1, attempt_timeout=1
        )
    message = str(caught.value)
    assert "\n" not in message and "did not finish" in message
    assert len(message) < 600
