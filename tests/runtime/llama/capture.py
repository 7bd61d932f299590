"""Record the llama-server traffic the diagnostics tests replay (tests/runtime/llama/
traffic.json), from a real server on loopback:

    python -m tests.runtime.llama.capture http://127.0.0.1:8081/v1 MODEL_NAME

Each exchange starts from the request Inspect's own openai-api provider sends for pizza's
`wrong-topping-1` (taken from the fake, which answers it with an error) and is sent to the
real server as it stands or with one change: a stop string (an empty reply), a message
asking for a `<tool_call>` the server's chat template parses (an unknown tool, arguments of
the wrong type) or a message longer than the server's context. The server's status and body
are stored byte for byte, with what was changed and the server's /props build line."""

from __future__ import annotations

import copy
import json
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from tests.runtime.llama.fake import TRAFFIC, serving

ECHO = "Reply with exactly the following text and nothing else:\n<tool_call>\n{call}\n</tool_call>"
UNKNOWN_CALL = {"name": "cancel_all_orders", "arguments": {"order_id": "PZ-839070"}}
BAD_ARGS_CALL = {
    "name": "issue_refund",
    "arguments": {"order_id": "PZ-839070", "amount": "five dollars", "reason": 5},
}


def inspect_request(log_dir: Path) -> dict[str, Any]:
    """The first request Inspect sends for one pizza sample (the fake answers it with 500)."""
    from checkout_consent.families import world_named
    from checkout_consent.runtime.runner import RunFailed, run_models

    with serving({}) as fake:
        try:
            run_models(
                world_named("pizza"),
                ["openai-api/llama/capture"],
                task_args={"tasks": "wrong-topping-1"},
                log_dir=log_dir,
                model_base_url=fake.url,
                model_args={"api_key": "none", "max_retries": 0},
                max_retries=0,
            )
        except RunFailed:
            pass
        return fake.requests[0]


def post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    data = json.dumps(body).encode()
    request = urllib.request.Request(
        url + "/chat/completions", data, {"content-type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=1800) as answer:
            status, kind, text = answer.status, answer.headers["content-type"], answer.read()
    except urllib.error.HTTPError as err:
        status, kind, text = err.code, err.headers["content-type"], err.read()
    return {"status": status, "content_type": kind, "body": text.decode()}


def with_user(base: dict[str, Any], text: str) -> dict[str, Any]:
    body = copy.deepcopy(base)
    body["messages"].append({"role": "user", "content": text})
    return body


def main(url: str, model: str) -> None:
    base = inspect_request(Path("logs/capture"))
    base["model"] = model
    props = json.loads(urllib.request.urlopen(url.removesuffix("/v1") + "/props").read())
    n_ctx = int(props["default_generation_settings"]["n_ctx"])
    text_call = post(url, base)
    first = json.loads(text_call["body"])["choices"][0]["message"]["content"] or " "
    plans = {
        "text_call": ("the request as Inspect sent it", None),
        "empty_reply": (f"stop={first[:1]!r}: the reply's first character", {"stop": [first[:1]]}),
        "unknown_tool": ("asked to echo a <tool_call> of a tool not offered", UNKNOWN_CALL),
        "bad_arguments": ("asked to echo a <tool_call> with wrongly typed args", BAD_ARGS_CALL),
        "context_overflow": (f"a user message of {n_ctx + 64} words (n_ctx {n_ctx})", n_ctx),
    }
    exchanges = {"text_call": {**text_call, "sent": plans["text_call"][0]}}
    for name, (sent, change) in list(plans.items())[1:]:
        if name == "empty_reply":
            body = {**base, **change}
        elif name == "context_overflow":
            body = with_user(base, "word " * (n_ctx + 64))
        else:
            body = with_user(base, ECHO.format(call=json.dumps(change)))
        exchanges[name] = {**post(url, body), "sent": sent}
        print(name, exchanges[name]["status"], exchanges[name]["body"][:160], file=sys.stderr)
    build = {k: props.get(k) for k in ("build_info", "model_path", "n_ctx") if k in props}
    TRAFFIC.write_text(
        json.dumps({"server": build, "model": model, "exchanges": exchanges}, indent=1) + "\n"
    )


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
