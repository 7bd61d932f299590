"""The compact cassette: one run unit's traffic as gzipped JSON, growing with the responses,
not with the square of the conversation.

Each request is stored by the sha256 of its normalised body (what replay matches), the
short digests of its messages (the messages the request before it already had are counted,
`keep`, and only the new ones listed, `add`), the other top-level fields' digests and the
model and tool names (a `frame`, shared by the requests that have the same one), the last
message summarised, and its response whole. `check` is the sha256 of the rest of the entry:
a digest, message list or response edited by hand no longer matches it and the cassette is
refused naming the request. The file is JSON with one frame or request per line, so a diff
of two recordings reads request by request.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from checkout_consent.cassettes import digest
from checkout_consent.cassettes.match import (
    KEPT_REQUEST_HEADERS,
    KEPT_RESPONSE_HEADERS,
    RUN_UNIT_HEADER,
    canonical_body,
    header,
)

FORMAT: Literal["checkout-consent cassette"] = "checkout-consent cassette"
VERSION: Literal[2] = 2
MAX_REQUESTS = 100_000
MAX_MESSAGES = 1_000_000
Hex64 = Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]
Short = Annotated[str, Field(pattern=rf"^[0-9a-f]{{{digest.PART_HEX}}}$")]
Name = Annotated[str, Field(max_length=200)]
_STRICT = ConfigDict(extra="forbid", strict=True, frozen=True)


class Frame(BaseModel):
    """What requests share beside their conversation: model, tool names, field digests."""

    model_config = _STRICT
    model: Name
    tools: Annotated[list[Name], Field(max_length=2000)]
    fields: Annotated[dict[Annotated[str, Field(max_length=80)], Short], Field(max_length=500)]
    messages_at: digest.MessagesAt | None


class Response(BaseModel):
    model_config = _STRICT
    status: Annotated[int, Field(ge=100, le=599)]
    reason: Annotated[str, Field(max_length=200)]
    headers: dict[
        Name, Annotated[list[Annotated[str, Field(max_length=2000)]], Field(max_length=50)]
    ]
    body: str


class Entry(BaseModel):
    """One recorded request and its response."""

    model_config = _STRICT
    method: Annotated[str, Field(pattern=r"^[A-Z]{1,12}$")]
    uri: Annotated[str, Field(pattern=r"^https?://\S+$", max_length=2000)]
    headers: dict[Name, Annotated[str, Field(max_length=2000)]]
    digest: Hex64
    frame: Annotated[int, Field(ge=0)]
    keep: Annotated[int, Field(ge=0, le=MAX_MESSAGES)]
    add: Annotated[list[Short], Field(max_length=MAX_MESSAGES)]
    last: Annotated[str, Field(max_length=4 * digest.SUMMARY_CHARS)]
    response: Response
    check: Hex64


class Unit(BaseModel):
    model_config = _STRICT
    format: Literal["checkout-consent cassette"]
    version: Literal[2]
    unit: Annotated[str, Field(min_length=1, max_length=300)]
    frames: Annotated[list[Frame], Field(min_length=1, max_length=MAX_REQUESTS)]
    requests: Annotated[list[Entry], Field(min_length=1, max_length=MAX_REQUESTS)]


class Malformed(ValueError):
    """A compact cassette that is not what this suite writes (the message is one line)."""


def seal(entry: dict[str, Any], frame: Frame) -> str:
    """An entry's check: sha256 over everything else in it, its frame included."""
    rest = {k: v for k, v in entry.items() if k != "check"}
    return digest.sha256_hex(digest.canonical({**rest, "frame": frame.model_dump()}))


def messages_of(unit: Unit, index: int) -> list[str]:
    """The message digests of request `index`, expanded from the keep/add chain."""
    out: list[str] = []
    for entry in unit.requests[: index + 1]:
        out = out[: entry.keep] + list(entry.add)
    return out


def _problem(unit: Unit) -> str | None:
    count = 0  # messages of the request before
    for i, entry in enumerate(unit.requests):
        where = f"request {i}"
        if entry.frame >= len(unit.frames):
            return f"{where} names frame {entry.frame}; the cassette has {len(unit.frames)}"
        if entry.keep > count:
            return f"{where} keeps {entry.keep} message(s); the request before had {count}"
        bad = sorted(set(entry.headers) - KEPT_REQUEST_HEADERS) or sorted(
            set(entry.response.headers) - KEPT_RESPONSE_HEADERS
        )
        if bad:
            return f"{where} holds header {bad[0][:40]!r}, which a cassette never keeps"
        if seal(entry.model_dump(), unit.frames[entry.frame]) != entry.check:
            return (
                f"{where}: its stored check does not match its digest, messages and "
                "response (edited by hand?)"
            )
        count = entry.keep + len(entry.add)
    return None


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not JSON a cassette holds")


def loads(text: str) -> Unit:
    """A compact cassette from its JSON text, validated; Malformed (one line) otherwise."""
    try:
        data = json.loads(text, parse_constant=_no_constants)
    except (ValueError, RecursionError) as err:
        raise Malformed(f"is not valid cassette JSON ({type(err).__name__})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise Malformed(f'is not a compact cassette (no "format": "{FORMAT}")')
    try:
        unit = Unit.model_validate(data)
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"])[:80]
        raise Malformed(f"{where}: {first['msg'][:120]} ({err.error_count()} problem(s))") from None
    problem = _problem(unit)
    if problem:
        raise Malformed(problem)
    return unit


def dumps(unit: Unit) -> str:
    """The file's text: a header line, then one frame or request per line."""

    def line(model: BaseModel) -> str:
        return json.dumps(model.model_dump(), sort_keys=True, ensure_ascii=False, allow_nan=False)

    head = json.dumps({"format": FORMAT, "version": VERSION, "unit": unit.unit}, ensure_ascii=False)
    return (
        head[:-1]
        + ',\n"frames":[\n'
        + ",\n".join(line(f) for f in unit.frames)
        + '],\n"requests":[\n'
        + ",\n".join(line(r) for r in unit.requests)
        + "]}\n"
    )


def _response(response: dict[str, Any]) -> Response:
    body = response["body"]["string"]
    if isinstance(body, bytes):
        try:
            body = body.decode("utf-8")
        except UnicodeDecodeError:
            raise Malformed("a response body is not UTF-8 (cassettes hold text)") from None
    headers = {
        k: [str(x) for x in (v if isinstance(v, list) else [v])]
        for k, v in response["headers"].items()
    }
    status = response["status"]
    return Response(
        status=status["code"], reason=str(status.get("message") or ""), headers=headers, body=body
    )


def _shared_prefix(before: list[str], now: list[str]) -> int:
    for i, (a, b) in enumerate(zip(before, now, strict=False)):
        if a != b:
            return i
    return min(len(before), len(now))


def _headers(request: Any) -> dict[str, str]:
    """The kept request headers but the run unit (the file names it), lower-cased."""
    names = {k.lower() for k in request.headers} - {RUN_UNIT_HEADER}
    return {name: header(request, name) for name in sorted(names)}


def pack(unit: str, interactions: list[tuple[Any, dict[str, Any]]]) -> Unit:
    """A unit's (vcrpy request, response) pairs, in the order they were made, compacted."""
    frames: list[Frame] = []
    entries: list[Entry] = []
    before: list[str] = []
    for request, response in interactions:
        body = digest.parts(canonical_body(request.body))
        frame = Frame(
            model=body.model, tools=body.tools, fields=body.fields, messages_at=body.messages_at
        )  # type: ignore[arg-type]
        if frame not in frames:
            frames.append(frame)
        now = digest.message_digests(body.messages)
        keep = _shared_prefix(before, now)
        entry = {
            "method": request.method.upper(),
            "uri": request.uri,
            "headers": _headers(request),
            "digest": body.digest,
            "frame": frames.index(frame),
            "keep": keep,
            "add": now[keep:],
            "last": digest.last_message(body),
            "response": _response(response).model_dump(),
        }
        entries.append(Entry(**entry, check=seal(entry, frame)))
        before = now
    return Unit(format=FORMAT, version=VERSION, unit=unit, frames=frames, requests=entries)
