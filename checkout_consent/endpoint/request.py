"""What `serve-controls` accepts of a request, and the one error shape it answers otherwise:
a 4xx JSON error, never a dropped connection or a traceback."""

from __future__ import annotations

import json
from typing import Any

MAX_BODY_BYTES = 16 * 1024 * 1024  # the longest real transcript is well under 1 MB
MAX_DEPTH = 64  # JSON nesting a chat request needs (a handful of levels), with room to spare


class WireError(ValueError):
    """A request the endpoint cannot answer, with the HTTP status that says why."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def error_body(message: str, kind: str = "invalid_request_error") -> bytes:
    """The error shape both SDKs read: {"type": "error", "error": {type, message}}."""
    return json.dumps({"type": "error", "error": {"type": kind, "message": message}}).encode()


def content_length(value: str | None) -> int:
    """The body length a request declares, refused when missing, malformed or too large."""
    if value is None:
        raise WireError("a request body needs a Content-Length (chunked bodies are not read)", 411)
    text = value.strip()
    if not (text.isascii() and text.isdigit()):
        raise WireError(f"bad Content-Length {value[:40]!r}")
    length = int(text)
    if length > MAX_BODY_BYTES:
        raise WireError(f"request body of {length} bytes is over {MAX_BODY_BYTES}", 413)
    return length


def _depth(value: Any) -> int:
    """How deep a parsed JSON value nests (iteratively: no recursion to exhaust)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, level)
            if deepest > MAX_DEPTH:
                return deepest
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, level + 1) for child in children)
    return deepest


def parse_body(raw: bytes) -> dict[str, Any]:
    """The request body as a JSON object of the expected shape, or a WireError."""
    try:
        body = json.loads(raw)
    except RecursionError:
        raise WireError(f"request body nests deeper than {MAX_DEPTH} levels") from None
    except ValueError:
        raise WireError("request body is not JSON") from None
    if _depth(body) > MAX_DEPTH:
        raise WireError(f"request body nests deeper than {MAX_DEPTH} levels")
    if not isinstance(body, dict):
        raise WireError(f"request body must be a JSON object, not a {type(body).__name__}")
    if not isinstance(body.get("model"), str):
        raise WireError("request body has no model (a string naming the control)")
    messages = body.get("messages")
    if not isinstance(messages, list) or not all(
        isinstance(m, dict) and isinstance(m.get("role"), str) for m in messages
    ):
        raise WireError("request body has no messages (a list of objects with a role)")
    return body
