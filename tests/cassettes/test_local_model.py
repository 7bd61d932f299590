"""A local model's run through the recorder: `openai-api/llama/<name>` on a loopback server
(the llama-server stand-in serving recorded bytes) is recorded with no LLAMA_API_KEY set,
and replayed with no server, no key and no network; its record keeps the diagnostics."""

import json

import pytest

from checkout_consent.cassettes import store
from checkout_consent.cassettes.load import CassetteRefused
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


def test_local_model__the_servers_setting_is_recorded_in_run_json_and_both_logs(
    tmp_path, monkeypatch
):
    from inspect_ai.log import read_eval_log

    from checkout_consent.runtime.chat_template import TEMPLATES

    monkeypatch.delenv("LLAMA_API_KEY", raising=False)
    adapted = TEMPLATES["qwen2.5-coder-fenced-json"]
    with serving({"wrong-topping-1-1": ["text_call"]}) as fake:
        fake.props = {
            "chat_template": adapted.text,
            "default_generation_settings": {"n_ctx": 32768, "params": {"temperature": 0.0}},
            "total_slots": 2,
        }
        manifest = store.Manifest("pizza", MODEL, fake.url, {}, {"tasks": "wrong-topping-1"})
        made = record(manifest, root=tmp_path / "c", log_dir=tmp_path / "logs")
    want = {
        "chat_template": {"name": adapted.name, "protocol": "adapted", "sha256": adapted.sha256},
        "temperature": 0.0,
        "n_ctx_per_slot": 32768,
        "slots": 2,
    }
    assert json.loads((made.directory / "run.json").read_text())["server"] == want
    assert read_eval_log(made.log_path, header_only=True).eval.metadata == {"local_server": want}
    again = replay(made.directory, log_dir=tmp_path / "logs")  # no server, no question asked
    assert again.differences == []
    assert read_eval_log(again.log_path, header_only=True).eval.metadata == {"local_server": want}


def test_manifest__a_server_block_is_validated_like_the_rest(tmp_path):
    directory = tmp_path / "d"
    directory.mkdir()
    good = store.Manifest("pizza", MODEL, "http://127.0.0.1:1/v1", server={"slots": 2})
    good.write(directory)
    assert store.Manifest.read(directory).server == {"slots": 2}
    for bad in ({"slots": [1, 2]}, {"x" * 81: 1}, {"chat_template": {"name": {"deep": 1}}}):
        text = json.loads((directory / "run.json").read_text())
        (directory / "run.json").write_text(json.dumps({**text, "server": bad}))
        with pytest.raises(CassetteRefused, match="run.json"):
            store.Manifest.read(directory)
    plain = store.Manifest("pizza", MODEL, None)
    plain.write(directory)
    assert "server" not in json.loads((directory / "run.json").read_text())
