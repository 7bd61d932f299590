"""The shipped chat templates and the server setting a run records: each adapted template is
the model's own with only its tool-call places changed, a server's template is named by its
sha256 (adapted, native or unrecognised), and what a server says is read defensively."""

import http.server
import json
import threading
from pathlib import Path

import pytest

from checkout_consent.runtime import chat_template, local_server
from checkout_consent.runtime.chat_template import (
    ADAPTED,
    NATIVE,
    TEMPLATES,
    describe,
    protocol_note,
)

OWN = Path(__file__).parent / "chat_templates"  # the models' own templates, from their GGUFs


def _changed_lines(own: str, adapted: str) -> list[tuple[str, str]]:
    a, b = own.splitlines(), adapted.splitlines()
    assert len(a) == len(b), "an adapted template keeps the model's own lines"
    return [(x, y) for x, y in zip(a, b, strict=True) if x != y]


def test_qwen_template__changes_only_the_tool_call_places():
    own = (OWN / "qwen2.5-coder-0.5b-instruct.own.jinja").read_text()
    changed = _changed_lines(own, TEMPLATES["qwen2.5-coder-fenced-json"].text)
    assert len(changed) == 3  # the instruction, and the call's opening and closing
    for before, after in changed:
        assert "tool_call" in before and "tool_call" not in after and "```" in after


def test_qwen_bare_template__is_the_fenced_one_without_the_fence():
    own = (OWN / "qwen2.5-coder-0.5b-instruct.own.jinja").read_text()
    fenced = TEMPLATES["qwen2.5-coder-fenced-json"].text
    bare = TEMPLATES["qwen2.5-coder-bare-json"].text
    changed = _changed_lines(fenced, bare)
    assert len(changed) == 3  # the same three places
    for before, after in changed:
        assert "```" in before and "```" not in after and "tool_call" not in after
    assert [a for a, _ in _changed_lines(own, bare)] == [a for a, _ in _changed_lines(own, fenced)]


def test_qwen_template__the_1_5b_own_differs_only_in_the_instruction_braces():
    small = (OWN / "qwen2.5-coder-0.5b-instruct.own.jinja").read_text()
    large = (OWN / "qwen2.5-coder-1.5b-instruct.own.jinja").read_text()
    [(a, b)] = _changed_lines(small, large)
    assert b.replace("{{", "{").replace("}}", "}") == a.replace("{{", "{").replace("}}", "}")


def test_smollm2_template__its_own_offers_no_tools_and_the_adapted_one_does():
    own = (OWN / "smollm2-135m-instruct.own.jinja").read_text()
    adapted = TEMPLATES["smollm2-fenced-json"].text
    assert "tools" not in own and "tools" in adapted
    qwen = TEMPLATES["qwen2.5-coder-fenced-json"].text
    changed = _changed_lines(qwen, adapted)
    assert changed and all("SmolLM" in after for _, after in changed)


def test_describe__names_adapted_native_and_unrecognised_templates():
    own = (OWN / "qwen2.5-coder-0.5b-instruct.own.jinja").read_text()
    adapted = TEMPLATES["qwen2.5-coder-fenced-json"]
    assert describe(adapted.text, own) == {
        "name": adapted.name,
        "protocol": ADAPTED,
        "sha256": adapted.sha256,
    }
    assert describe(own, own)["protocol"] == NATIVE
    # llama-server applies (and /props reports) a template without its trailing whitespace
    served = describe(adapted.text.rstrip(), own)
    assert served["protocol"] == ADAPTED and served["sha256"] == chat_template.digest(
        adapted.text.rstrip()
    )
    assert describe(own.rstrip(), own)["protocol"] == NATIVE
    assert describe(own, None)["protocol"] == "unrecognised"  # the weights were not readable
    assert describe(own + " x", own)["protocol"] == "unrecognised"
    note = protocol_note({ADAPTED, None})
    assert "tools as JSON text (fenced or bare): template adapted to the model's output" in note
    assert protocol_note({None}) == ""


def test_template_file__an_unknown_name_is_one_line():
    with pytest.raises(ValueError, match="no shipped chat template 'nope': one of"):
        chat_template.template_file("nope")


def _props_server(body: bytes) -> tuple[http.server.HTTPServer, str]:
    class Props(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200 if self.path == "/props" else 404)
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Props)
    threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/v1"


def test_setting__reads_what_llama_server_says_it_applies(monkeypatch):
    adapted = TEMPLATES["qwen2.5-coder-fenced-json"]
    props = {
        "chat_template": adapted.text,
        "default_generation_settings": {"n_ctx": 16384, "params": {"temperature": 0, "seed": 0}},
        "total_slots": 2,
        "model_path": "/nowhere/qwen.gguf",
        "build_info": "b1-abc",
    }
    server, url = _props_server(json.dumps(props).encode())
    monkeypatch.setenv(local_server.FLAGS_ENV, "-m qwen.gguf --temp 0.0")
    try:
        setting = local_server.setting(url)
        assert local_server.of_run(["openai-api/llama/x"], {"model_base_url": url}) == setting
    finally:
        server.shutdown()
    assert setting == {
        "chat_template": {"name": adapted.name, "protocol": ADAPTED, "sha256": adapted.sha256},
        "temperature": 0,
        "seed": 0,
        "n_ctx_per_slot": 16384,
        "slots": 2,
        "weights": "qwen.gguf",
        "build": "b1-abc",
        "flags": "-m qwen.gguf --temp 0.0",
    }


@pytest.mark.parametrize("body", [b"[1, 2]", b"not json", b'{"chat_template": 7}', b"{}"])
def test_setting__an_endpoint_that_does_not_say_records_nothing(body):
    server, url = _props_server(body)
    try:
        assert local_server.setting(url) is None
    finally:
        server.shutdown()


def test_of_run__only_a_loopback_openai_compatible_server_is_asked():
    assert local_server.of_run(["openai/gpt-4o"], {"model_base_url": "http://127.0.0.1:1"}) is None
    far = {"model_base_url": "http://example.com/v1"}
    assert local_server.of_run(["openai-api/llama/x"], far) is None
    assert local_server.of_run(["openai-api/llama/x", "openai-api/llama/y"], {}) is None
