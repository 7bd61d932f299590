"""A provider request as cassettes know it: it matches on (run unit, method, URL, sha256 of
the canonical body), the run unit being the `x-cc-run-unit` header, so identical requests of
different samples or epochs never trade responses. Request headers are kept by allow-list
(secrets, random ids, retry counts, user-agent and dates dropped), response headers keep
only the content type."""

from __future__ import annotations

import hashlib
import json
from typing import Any, Literal, NamedTuple
from urllib.parse import urlsplit

from checkout_consent.runtime.local_server import LOOPBACK

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
MessagesAt = Literal["messages", "input", "contents"]
MESSAGE_KEYS: tuple[MessagesAt, ...] = ("messages", "input", "contents")  # chat/responses/google
PART_HEX = 12
SUMMARY_CHARS = 200

RequestKey = tuple[str, str, str, str]


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def canonical(value: Any) -> str:
    """Canonical JSON: sorted keys, no spaces."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def canonical_body(body: bytes | str | None) -> str:
    """The body as canonical JSON; raw text if it is not JSON."""
    if body is None:
        return ""
    text = body.decode("utf-8", "replace") if isinstance(body, bytes) else str(body)
    try:
        return canonical(json.loads(text))
    except ValueError:
        return text


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
    """The parts of a body already in canonical form (`canonical_body`)."""
    digest = sha256_hex(canonical_text)
    try:
        body = json.loads(canonical_text) if canonical_text else None
    except ValueError:
        body = None
    if not isinstance(body, dict):
        fields = {"(body)": digest[:PART_HEX]} if canonical_text else {}
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


def header(request: Any, name: str) -> str:
    for key, value in request.headers.items():
        if key.lower() == name:
            return str(value[0] if isinstance(value, list) else value)
    return ""


def _uri(uri: str) -> str:
    """The URL to match on: a loopback server's port is where it happened to listen, not
    what was asked, so parts recorded on different ports (`cassettes merge`) replay alike."""
    split = urlsplit(uri)
    host = split.hostname or ""
    if host in LOOPBACK:
        return split._replace(netloc=f"[{host}]" if ":" in host else host).geturl()
    return uri


def request_key(request: Any) -> RequestKey:
    """(run unit, method, URL without a loopback port, body digest), computed once per
    request object."""
    key = request.__dict__.get(_KEY)
    if key is None:
        digest = request.__dict__.get(DIGEST) or sha256_hex(canonical_body(request.body))
        key = (header(request, RUN_UNIT_HEADER), request.method.upper(), _uri(request.uri), digest)
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
    """One line naming a request: unit (and place in it), method, URL, last message."""
    unit, method, _, _ = request_key(request)
    uri = request.uri  # as sent, port and all
    tail = request.__dict__.get(SUMMARY)
    if tail is None:
        tail = last_message(parts(canonical_body(request.body)))
    place = "" if index is None else f", request {index}"
    return f"{method} {uri} [run unit {unit or '?'}{place}] last message: {tail}"
