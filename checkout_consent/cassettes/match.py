"""How a request finds its recorded response, and what of a request or response is kept.

A request matches on (run unit, method, URL, body as canonical JSON). The run unit is the
`x-cc-run-unit` header the agent loop puts on every generate, so identical requests of
different samples or epochs never trade responses. Each request's key is computed once and
cached on it: a miss costs a tuple comparison, not a diff (vcrpy's body matcher diffs).

Request headers are kept by allow-list (secrets, Inspect's random `x-irid`, retry counts,
user-agent and dates are dropped); response headers keep only the content type.
"""

from __future__ import annotations

import json
from typing import Any

RUN_UNIT_HEADER = "x-cc-run-unit"
KEPT_REQUEST_HEADERS = frozenset(
    {"content-type", "anthropic-version", "anthropic-beta", RUN_UNIT_HEADER}
)
KEPT_RESPONSE_HEADERS = frozenset({"content-type"})
SECRET_HEADERS = (
    "authorization",
    "x-api-key",
    "api-key",
    "cookie",
    "set-cookie",
    "openai-organization",
    "openai-project",
    "anthropic-organization-id",
)
_KEY = "_cc_match_key"

RequestKey = tuple[str, str, str, str]


def canonical_body(body: bytes | str | None) -> str:
    """The body as canonical JSON (sorted keys, no spaces); raw text if it is not JSON."""
    if body is None:
        return ""
    text = body.decode("utf-8", "replace") if isinstance(body, bytes) else str(body)
    try:
        return json.dumps(json.loads(text), sort_keys=True, separators=(",", ":"))
    except ValueError:
        return text


def header(request: Any, name: str) -> str:
    for key, value in request.headers.items():
        if key.lower() == name:
            return str(value[0] if isinstance(value, list) else value)
    return ""


def request_key(request: Any) -> RequestKey:
    """(run unit, method, URL, canonical body), computed once per request object."""
    key = request.__dict__.get(_KEY)
    if key is None:
        key = (
            header(request, RUN_UNIT_HEADER),
            request.method.upper(),
            request.uri,
            canonical_body(request.body),
        )
        request.__dict__[_KEY] = key
    return key


def match(r1: Any, r2: Any) -> bool:
    """The vcrpy matcher: equal run unit, method, URL and canonical body."""
    return request_key(r1) == request_key(r2)


def scrub_request(request: Any) -> Any:
    """Keep only allow-listed request headers (vcrpy hands us a copy)."""
    kept = {k: v for k, v in request.headers.items() if k.lower() in KEPT_REQUEST_HEADERS}
    request.headers = kept
    request.__dict__.pop(_KEY, None)
    return request


def scrub_response(response: dict[str, Any]) -> dict[str, Any] | None:
    """Keep only the content type; drop rate-limit and server errors (the SDK retries)."""
    if response["status"]["code"] >= 429:
        return None
    response["headers"] = {
        k: v for k, v in response["headers"].items() if k.lower() in KEPT_RESPONSE_HEADERS
    }
    return response


def describe(request: Any) -> str:
    """One line naming a request: unit, method, URL and the tail of its last message."""
    unit, method, uri, body = request_key(request)
    tail = ""
    try:
        messages = json.loads(body).get("messages") or [{}]
        tail = json.dumps(messages[-1].get("content"))[:160]
    except (ValueError, AttributeError):
        tail = body[:160]
    return f"{method} {uri} [run unit {unit or '?'}] last message: {tail}"
