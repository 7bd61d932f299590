"""The Anthropic messages wire format for `serve-controls`."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from checkout_consent.core.controls import CallRequest, Msg, Reply, call_ids
from checkout_consent.endpoint.wire.common import request_id, usage_of


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    return "".join(b.get("text", "") for b in content or [] if b.get("type") == "text")


def _user_blocks(content: Any) -> list[Msg]:
    """A user turn: its tool results (one tool message each), then its text."""
    if isinstance(content, str):
        return [Msg("user", content)]
    out = [
        Msg(
            "tool", _text(b.get("content")), call_id=b["tool_use_id"], error=bool(b.get("is_error"))
        )
        for b in content
        if b.get("type") == "tool_result"
    ]
    if any(b.get("type") == "text" for b in content):
        out.append(Msg("user", _text(content)))
    return out


def _assistant(content: Any) -> Msg:
    if isinstance(content, str):
        return Msg("assistant", content)
    calls = tuple(
        CallRequest(b["id"], b["name"], dict(b.get("input") or {}))
        for b in content
        if b.get("type") == "tool_use"
    )
    return Msg("assistant", _text(content), calls)


def transcript(body: dict[str, Any]) -> list[Msg]:
    """The control transcript of a messages request body."""
    system = body.get("system")
    msgs = [Msg("system", _text(system))] if system else []
    for m in body.get("messages", []):
        if m["role"] == "assistant":
            msgs.append(_assistant(m["content"]))
        else:
            msgs.extend(_user_blocks(m["content"]))
    return msgs


def response(body: dict[str, Any], msgs: list[Msg], reply: Reply) -> dict[str, Any]:
    """A `message` object answering `body` with `reply`."""
    ids = call_ids(msgs, reply)
    content: list[dict[str, Any]] = [{"type": "text", "text": reply.text}] if reply.text else []
    content += [
        {"type": "tool_use", "id": i, "name": tool, "input": args}
        for i, (tool, args) in zip(ids, reply.calls, strict=True)
    ]
    prompt, completion = usage_of(msgs, reply)
    return {
        "id": "msg_" + request_id(body),
        "type": "message",
        "role": "assistant",
        "model": body["model"],
        "content": content,
        "stop_reason": "tool_use" if reply.calls else "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": prompt, "output_tokens": completion},
    }


def _event(name: str, **data: Any) -> str:
    """One server-sent event; its data's `type` is the event's name, as Anthropic's are."""
    return f"event: {name}\ndata: {json.dumps({'type': name, **data})}\n\n"


def _block_events(index: int, block: dict[str, Any]) -> Iterator[str]:
    start: dict[str, Any]
    if block["type"] == "text":
        start, delta = {"type": "text", "text": ""}, {"type": "text_delta", "text": block["text"]}
    else:
        start = {"type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}
        delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
    yield _event("content_block_start", index=index, content_block=start)
    yield _event("content_block_delta", index=index, delta=delta)
    yield _event("content_block_stop", index=index)


def events(message: dict[str, Any]) -> Iterator[str]:
    """The server-sent events that stream `message` (one delta per content block)."""
    head = {
        **message,
        "content": [],
        "stop_reason": None,
        "usage": {**message["usage"], "output_tokens": 0},
    }
    yield _event("message_start", message=head)
    for index, block in enumerate(message["content"]):
        yield from _block_events(index, block)
    yield _event(
        "message_delta",
        delta={"stop_reason": message["stop_reason"], "stop_sequence": None},
        usage={"output_tokens": message["usage"]["output_tokens"]},
    )
    yield _event("message_stop")
