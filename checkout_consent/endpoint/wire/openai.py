"""The OpenAI chat-completions wire format for `serve-controls`."""

from __future__ import annotations

import json
from typing import Any

from checkout_consent.core.controls import CallRequest, Msg, Reply, call_ids
from checkout_consent.endpoint.wire.common import FIXED_CREATED, request_id, usage_of

ERROR_PREFIX = "Error: "  # how Inspect's openai provider sends a failed tool call


def _text(content: Any) -> str:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    return "".join(p.get("text", "") for p in content if isinstance(p, dict))


def _message(m: dict[str, Any]) -> Msg:
    role = m["role"]
    text = _text(m.get("content"))
    if role == "assistant":
        calls = tuple(
            CallRequest(
                c["id"], c["function"]["name"], json.loads(c["function"].get("arguments") or "{}")
            )
            for c in m.get("tool_calls") or []
        )
        return Msg("assistant", text, calls)
    if role == "tool":
        error = text.startswith(ERROR_PREFIX)
        return Msg(
            "tool",
            text.removeprefix(ERROR_PREFIX) if error else text,
            call_id=m.get("tool_call_id"),
            error=error,
        )
    return Msg("system" if role == "developer" else role, text)


def transcript(body: dict[str, Any]) -> list[Msg]:
    """The control transcript of a chat-completions request body."""
    return [_message(m) for m in body.get("messages", [])]


def response(body: dict[str, Any], msgs: list[Msg], reply: Reply) -> dict[str, Any]:
    """A chat.completion answering `body` with `reply`."""
    ids = call_ids(msgs, reply)
    tool_calls = [
        {
            "id": i,
            "type": "function",
            "function": {"name": tool, "arguments": json.dumps(args, sort_keys=True)},
        }
        for i, (tool, args) in zip(ids, reply.calls, strict=True)
    ]
    message: dict[str, Any] = {"role": "assistant", "content": reply.text or None}
    if tool_calls:
        message["tool_calls"] = tool_calls
    prompt, completion = usage_of(msgs, reply)
    return {
        "id": "chatcmpl-" + request_id(body),
        "object": "chat.completion",
        "created": FIXED_CREATED,
        "model": body["model"],
        "choices": [
            {
                "index": 0,
                "message": message,
                "logprobs": None,
                "finish_reason": "tool_calls" if tool_calls else "stop",
            }
        ],
        "usage": {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "total_tokens": prompt + completion,
        },
    }
