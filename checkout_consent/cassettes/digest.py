"""Digests of a provider request, as a compact cassette stores them and replay recomputes
them: the whole normalised body (what replay matches), each message of its conversation
and each other top-level field (what a miss is explained by), plus the few things a
reviewer reads (model, tool names, the last message).

The body is normalised as the matcher always has (`match.canonical_body`: canonical JSON,
sorted keys, no spaces; raw text if it is not JSON); its digest is sha256 over that text.
A message or field digest is the first PART_HEX hex digits of sha256 over its canonical
JSON: it only points a miss at message k, the body digest is what must match whole.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Literal, NamedTuple

MessagesAt = Literal["messages", "input", "contents"]
MESSAGE_KEYS: tuple[MessagesAt, ...] = ("messages", "input", "contents")  # chat/responses/google
PART_HEX = 12
SUMMARY_CHARS = 200


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def canonical(value: Any) -> str:
    """Canonical JSON, as `match.canonical_body` writes a body."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def part_digest(value: Any) -> str:
    return sha256_hex(canonical(value))[:PART_HEX]


class Parts(NamedTuple):
    """A request body taken apart."""

    digest: str  # sha256 of the canonical body: what replay matches
    messages_at: MessagesAt | None  # the top-level key holding the conversation (None: none)
    messages: list[Any]
    fields: dict[str, str]  # every other top-level field -> its digest
    model: str
    tools: list[str]


def parts(canonical_text: str) -> Parts:
    """The parts of a body already in canonical form (`match.canonical_body`)."""
    digest = sha256_hex(canonical_text)
    try:
        body = json.loads(canonical_text) if canonical_text else None
    except ValueError:
        body = None
    if not isinstance(body, dict):
        fields = {"(body)": sha256_hex(canonical_text)[:PART_HEX]} if canonical_text else {}
        return Parts(digest, None, [], fields, "", [])
    at = next((k for k in MESSAGE_KEYS if isinstance(body.get(k), list)), None)
    messages = body[at] if at else []
    fields = {k: part_digest(v) for k, v in body.items() if k != at}
    model = body.get("model")
    return Parts(
        digest, at, messages, fields, model if isinstance(model, str) else "", _tools(body)
    )


def _tools(body: dict[str, Any]) -> list[str]:
    """Tool names, whichever wire format declares them (openai, anthropic, responses)."""
    names = []
    for tool in body.get("tools") or []:
        if isinstance(tool, dict):
            inner = tool["function"] if isinstance(tool.get("function"), dict) else tool
            names.append(str(inner.get("name", "?")))
    return names


def message_digests(messages: list[Any]) -> list[str]:
    return [part_digest(m) for m in messages]


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        pieces = [
            str(p.get("text", "")) if isinstance(p, dict) and "text" in p else canonical(p)
            for p in content
        ]
        return " ".join(pieces)
    return "" if content is None else canonical(content)


def summarise(message: Any, limit: int = SUMMARY_CHARS) -> str:
    """One line a reviewer reads: `role: text` (tool calls named), cut at `limit` chars."""
    if not isinstance(message, dict):
        line = canonical(message)
    else:
        calls = [
            f"{c['function'].get('name', '?')}({c['function'].get('arguments', '')})"
            for c in message.get("tool_calls") or []
            if isinstance(c, dict) and isinstance(c.get("function"), dict)
        ]
        text = _text(message.get("content"))
        line = f"{message.get('role', '?')}: " + " ".join(filter(None, [text, *calls]))
    line = " ".join(line.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def last_message(body_parts: Parts) -> str:
    return summarise(body_parts.messages[-1]) if body_parts.messages else ""
