"""How a request finds its recorded response, and what of a request or response is kept.

A request matches on (run unit, method, URL, sha256 of the body as canonical JSON). The run
unit is the `x-cc-run-unit` header the agent loop puts on every generate, so identical
requests of different samples or epochs never trade responses. Each request's key is
computed once and cached on it: a miss costs a tuple comparison, not a diff (vcrpy's body
matcher diffs). A request loaded from a compact cassette has no body, only its digest
(`compact.py`): it carries the digest and its last message's summary instead.

Request headers are kept by allow-list (secrets, Inspect's random `x-irid`, retry counts,
user-agent and dates are dropped); response headers keep only the content type.
"""

from __future__ import annotations

import json
from typing import Any

from checkout_consent.cassettes.digest import last_message, parts, sha256_hex

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
DIGEST = "_cc_body_digest"  # set on a request loaded from a compact cassette
SUMMARY = "_cc_last_message"

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
    """(run unit, method, URL, body digest), computed once per request object."""
    key = request.__dict__.get(_KEY)
    if key is None:
        digest = request.__dict__.get(DIGEST) or sha256_hex(canonical_body(request.body))
        key = (header(request, RUN_UNIT_HEADER), request.method.upper(), request.uri, digest)
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


def describe(request: Any, index: int | None = None) -> str:
    """One line naming a request: unit (and its place in the unit), method, URL and its
    last message (summarised)."""
    unit, method, uri, _ = request_key(request)
    tail = request.__dict__.get(SUMMARY)
    if tail is None:
        tail = last_message(parts(canonical_body(request.body)))
    place = "" if index is None else f", request {index}"
    return f"{method} {uri} [run unit {unit or '?'}{place}] last message: {tail}"
