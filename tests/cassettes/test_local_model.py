"""A local model's run through the recorder: `openai-api/llama/<name>` on a loopback server
(the llama-server stand-in serving recorded bytes) is recorded with no LLAMA_API_KEY set,
and replayed with no server, no key and no network; its record keeps the diagnostics."""

import json

import pytest

from checkout_consent.cassettes import store
from checkout_consent.cassettes.runs import record, replay
from tests.runtime.llama.fake import recorded, serving

pytestmark = [pytest.mark.cassette, pytest.mark.inspect]

MODEL = "openai-api/llama/qwen2.5-coder-0.5b-instruct"


def test_local_model__records_without_a_key_and_replays_with_no_server(tmp_path, monkeypatch):
    monkeypatch.delenv("LLAMA_API_KEY", raising=False)
    with serving({"wrong-topping-1-1": ["text_call"]}) as fake:
        manifest = store.Manifest("pizza", MODEL, fake.url, {}, {"tasks": "wrong-topping-1"})
        made = record(manifest, root=tmp_path / "c", log_dir=tmp_path / "logs")
    assert made.directory.name == "openai-api--llama--qwen2.5-coder-0.5b-instruct"
    golden = made.records["wrong-topping-1-1"]
    assert golden["diagnostics"]["text_tool_calls"] >= 1
    (unit,) = store.read_units(made.directory).values()
    body = json.loads(unit.requests[0].response.body)
    assert body["timings"] == json.loads(recorded("text_call")["body"])["timings"]  # kept whole
    again = replay(made.directory, log_dir=tmp_path / "logs")  # the fake is gone: no server
    assert again.differences == []
    assert again.records == made.records
