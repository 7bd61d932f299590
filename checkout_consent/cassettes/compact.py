"""The compact cassette: every run unit's traffic as one gzipped JSON file, growing with the
responses, not the square of the conversation (a request lists only its new message
digests). Each entry's `check` seals it, so one edited by hand is refused naming its unit and
request; one frame or request per line, so recordings diff request by request."""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from checkout_consent.cassettes.match import (
    KEPT_REQUEST_HEADERS,
    KEPT_RESPONSE_HEADERS,
    PART_HEX,
    RUN_UNIT_HEADER,
    SUMMARY_CHARS,
    MessagesAt,
    canonical,
    canonical_body,
    header,
    last_message,
    message_digests,
    parts,
    sha256_hex,
)

FORMAT: Literal["checkout-consent cassette"] = "checkout-consent cassette"
VERSION: Literal[2] = 2
MAX_REQUESTS = 100_000
MAX_MESSAGES = 1_000_000
Hex64 = Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]
CHECK_HEX = 16
Check = Annotated[str, Field(pattern=rf"^[0-9a-f]{{{CHECK_HEX}}}$")]
Short = Annotated[str, Field(pattern=rf"^[0-9a-f]{{{PART_HEX}}}$")]
Name = Annotated[str, Field(max_length=200)]
_STRICT = ConfigDict(extra="forbid", strict=True, frozen=True)


class Frame(BaseModel):
    """What requests share beside their conversation: model, tool names, field digests."""

    model_config = _STRICT
    model: Name
    tools: Annotated[list[Name], Field(max_length=2000)]
    fields: Annotated[dict[Annotated[str, Field(max_length=80)], Short], Field(max_length=500)]
    messages_at: MessagesAt | None


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
    last: Annotated[str, Field(max_length=4 * SUMMARY_CHARS)]
    response: Response
    check: Check


UnitName = Annotated[str, Field(min_length=1, max_length=300)]
Requests = Annotated[list[Entry], Field(min_length=1, max_length=MAX_REQUESTS)]
Frames = Annotated[list[Frame], Field(min_length=1, max_length=MAX_REQUESTS)]


class Recording(BaseModel):
    """One run unit's requests, in the order they were made."""

    model_config = _STRICT
    unit: UnitName
    requests: Requests


class Cassette(BaseModel):
    """The file: the frames every unit shares, then each unit's requests."""

    model_config = _STRICT
    format: Literal["checkout-consent cassette"]
    version: Literal[2]
    frames: Frames
    units: Annotated[list[Recording], Field(min_length=1, max_length=MAX_REQUESTS)]


class Unit(BaseModel):
    """One run unit as it is read: its requests and the frames they name."""

    model_config = _STRICT
    unit: UnitName
    frames: Frames
    requests: Requests


class Malformed(ValueError):
    """A compact cassette that is not what this suite writes (the message is one line)."""


def seal(entry: dict[str, Any], frame: Frame, unit: str) -> str:
    """An entry's check: a digest of everything else in it, its frame and unit included."""
    rest = {k: v for k, v in entry.items() if k != "check"}
    whole = canonical({**rest, "frame": frame.model_dump(), "unit": unit})
    return sha256_hex(whole)[:CHECK_HEX]


def messages_of(unit: Unit, index: int) -> list[str]:
    """The message digests of request `index`, expanded from the keep/add chain."""
    out: list[str] = []
    for entry in unit.requests[: index + 1]:
        out = out[: entry.keep] + list(entry.add)
    return out


def _problem(unit: Unit) -> str | None:
    count = 0  # messages of the request before
    for i, entry in enumerate(unit.requests):
        where = f"unit {unit.unit[:80]} request {i}"
        if entry.frame >= len(unit.frames):
            return f"{where} names frame {entry.frame}; the cassette has {len(unit.frames)}"
        if entry.keep > count:
            return f"{where} keeps {entry.keep} message(s); the request before had {count}"
        bad = sorted(set(entry.headers) - KEPT_REQUEST_HEADERS) or sorted(
            set(entry.response.headers) - KEPT_RESPONSE_HEADERS
        )
        if bad:
            return f"{where} holds header {bad[0][:40]!r}, which a cassette never keeps"
        if seal(entry.model_dump(), unit.frames[entry.frame], unit.unit) != entry.check:
            return (
                f"{where}: its stored check does not match its digest, messages and "
                "response (edited by hand?)"
            )
        count = entry.keep + len(entry.add)
    return None


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not JSON a cassette holds")


def loads(text: str) -> list[Unit]:
    """A compact cassette's units from its JSON text, validated; Malformed (one line)."""
    try:
        data = json.loads(text, parse_constant=_no_constants)
    except (ValueError, RecursionError) as err:
        raise Malformed(f"is not valid cassette JSON ({type(err).__name__})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise Malformed(f'is not a compact cassette (no "format": "{FORMAT}")')
    try:
        cassette = Cassette.model_validate(data)
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"])[:80]
        raise Malformed(f"{where}: {first['msg'][:120]} ({err.error_count()} problem(s))") from None
    units = [
        Unit.model_construct(unit=r.unit, frames=cassette.frames, requests=r.requests)
        for r in cassette.units
    ]
    names = [u.unit for u in units]
    twice = next((n for n in names if names.count(n) > 1), None)
    if twice is not None:
        raise Malformed(f"holds run unit {twice[:80]!r} twice")
    for unit in units:
        problem = _problem(unit)
        if problem:
            raise Malformed(problem)
    return units


def _line(model: BaseModel | dict[str, Any]) -> str:
    data = model.model_dump() if isinstance(model, BaseModel) else model
    return json.dumps(data, sort_keys=True, ensure_ascii=False, allow_nan=False)


def dumps(units: list[Unit]) -> str:
    """The file's text: a header line, then one frame or request per line."""
    frames: list[Frame] = []
    for unit in units:
        frames += [f for f in unit.frames if f not in frames]
    parts = [f'{{"format": "{FORMAT}", "version": {VERSION},\n"frames": [\n']
    parts.append(",\n".join(_line(f) for f in frames) + '],\n"units": [\n')
    blocks = []
    for unit in units:
        lines = [
            _line({**e.model_dump(), "frame": frames.index(unit.frames[e.frame])})
            for e in unit.requests
        ]
        blocks.append(
            f'{{"unit": {json.dumps(unit.unit)}, "requests": [\n' + ",\n".join(lines) + "]}"
        )
    return "".join(parts) + ",\n".join(blocks) + "]}\n"


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


def shared_prefix(before: list[str], now: list[str]) -> int:
    """How many leading digests two message lists share."""
    for i, (a, b) in enumerate(zip(before, now, strict=False)):
        if a != b:
            return i
    return min(len(before), len(now))


def pack(unit: str, interactions: list[tuple[Any, dict[str, Any]]]) -> Unit:
    """A unit's (vcrpy request, response) pairs, in the order they were made, compacted."""
    frames: list[Frame] = []
    entries: list[Entry] = []
    before: list[str] = []
    for request, response in interactions:
        body = parts(canonical_body(request.body))
        frame = Frame(
            model=body.model, tools=body.tools, fields=body.fields, messages_at=body.messages_at
        )
        if frame not in frames:
            frames.append(frame)
        now = message_digests(body.messages)
        keep = shared_prefix(before, now)
        names = {k.lower() for k in request.headers} - {RUN_UNIT_HEADER}  # the file names it
        entry = {
            "method": request.method.upper(),
            "uri": request.uri,
            "headers": {name: header(request, name) for name in sorted(names)},
            "digest": body.digest,
            "frame": frames.index(frame),
            "keep": keep,
            "add": now[keep:],
            "last": last_message(body),
            "response": _response(response).model_dump(),
        }
        entries.append(Entry(**entry, check=seal(entry, frame, unit)))
        before = now
    return Unit(unit=unit, frames=frames, requests=entries)
