"""Cassettes through vcrpy: `record` runs live and saves the scrubbed traffic (`match.py`) as
the directory's compact cassette; `replay` serves it with no network, placeholder keys and
no retries, failing at the first request it does not hold, naming where it leaves the
recording."""

from __future__ import annotations

import os
import socket
import warnings
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import vcr
from vcr.persisters.filesystem import CassetteNotFoundError
from vcr.request import Request

from checkout_consent.cassettes import Mode, compact, store
from checkout_consent.cassettes.match import (
    DIGEST,
    RUN_UNIT_HEADER,
    SECRET_HEADERS,
    SUMMARY,
    canonical_body,
    describe,
    header,
    match,
    message_digests,
    parts,
    scrub_request,
    scrub_response,
    summarise,
)
from checkout_consent.cassettes.preflight import key_vars
from checkout_consent.runtime.runner import RunFailed

PLACEHOLDER_KEY = "placeholder-no-key"
ALWAYS_LENT = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY")  # the reference runs' providers
# On replay: one attempt per request (a miss would otherwise be retried for a very long
# time); no live sample buffer (a quarter of a replay's time; the log is written whole).
REPLAY_EVAL_ARGS: dict[str, Any] = {"max_retries": 0, "timeout": 60, "log_realtime": False}
REPLAY_MODEL_ARGS: dict[str, Any] = {"max_retries": 0}
UNTAGGED = "untagged"  # the unit of requests that carry no run-unit header


class CassetteMiss(RunFailed):
    """A replayed run asked for a request its cassette does not hold."""


def _message_line(k: int, live: list[Any], recorded: list[str]) -> str:
    if k >= len(live):
        return (
            f"the recording has message {k} (digest {recorded[k]}) and more: "
            f"{len(recorded)} message(s), the run sent {len(live)}"
        )
    shown = summarise(live[k], 120)
    if k >= len(recorded):
        return f"the run sent message {k}, which the recording lacks: {shown}"
    return f"first differing message: {k} (the run sent {shown}; recorded digest {recorded[k]})"


def first_difference(unit: compact.Unit | None, index: int, request: Any) -> str:
    """One line: where the live request `index` of its unit leaves the recording."""
    if unit is None:
        return "the cassette holds no recording of this run unit"
    if index >= len(unit.requests):
        return f"the recording of this run unit ends after {len(unit.requests)} request(s)"
    entry = unit.requests[index]
    live = parts(canonical_body(request.body))
    recorded = compact.messages_of(unit, index)
    now = message_digests(live.messages)
    k = compact.shared_prefix(recorded, now)
    if k < max(len(now), len(recorded)):
        return _message_line(k, live.messages, recorded)
    fields = unit.frames[entry.frame].fields
    changed = sorted(
        f for f in fields.keys() | live.fields.keys() if fields.get(f) != live.fields.get(f)
    )
    if changed:
        return f"its messages agree with the recording; field(s) {', '.join(changed)[:200]} differ"
    if (entry.method, entry.uri) != (request.method.upper(), request.uri):
        return f"its body agrees with the recording; recorded {entry.method} {entry.uri}"
    return "it is the recorded request, asked once more than recorded"


def played(unit: compact.Unit) -> tuple[list[Request], list[dict[str, Any]]]:
    """What vcrpy replays of a unit: bodiless requests carrying their digests, and responses."""
    requests, responses = [], []
    for entry in unit.requests:
        request = Request(
            entry.method, entry.uri, b"", {**entry.headers, RUN_UNIT_HEADER: unit.unit}
        )
        request.__dict__[DIGEST] = entry.digest
        request.__dict__[SUMMARY] = entry.last
        requests.append(request)
        r = entry.response
        responses.append(
            {
                "status": {"code": r.status, "message": r.reason},
                "headers": {k: list(v) for k, v in r.headers.items()},
                "body": {"string": r.body.encode("utf-8")},
            }
        )
    return requests, responses


class UnitPersister:
    """vcrpy persister: a cassette path is a directory holding the compact cassette."""

    @staticmethod
    def load_cassette(cassette_path: str | Path, serializer: Any = None) -> tuple[list, list]:
        units = store.read_units(Path(cassette_path))
        if not units:
            raise CassetteNotFoundError(f"no cassette files in {cassette_path}")
        each = [played(unit) for unit in units.values()]
        return [q for qs, _ in each for q in qs], [r for _, rs in each for r in rs]

    @staticmethod
    def save_cassette(
        cassette_path: str | Path, cassette_dict: dict[str, Any], serializer: Any = None
    ) -> None:
        directory = Path(cassette_path)
        directory.mkdir(parents=True, exist_ok=True)
        units: dict[str, list[tuple[Any, dict[str, Any]]]] = {}
        for pair in zip(cassette_dict["requests"], cassette_dict["responses"], strict=True):
            units.setdefault(header(pair[0], RUN_UNIT_HEADER) or UNTAGGED, []).append(pair)
        if UNTAGGED in units:
            warnings.warn(
                f"{cassette_path}: {len(units[UNTAGGED])} request(s) had "
                f"no {RUN_UNIT_HEADER} header (a solver not using runtime.loop?); with "
                "several samples at once their replay order is not guaranteed",
                stacklevel=2,
            )
        store.write_cassette(directory, [compact.pack(n, pairs) for n, pairs in units.items()])


@dataclass
class Session:
    """One cassette in use: the requests it could not answer, and those never made."""

    directory: Path
    mode: Mode
    misses: list[str] = field(default_factory=list)
    unplayed: list[str] = field(default_factory=list)
    answered: Counter[str] = field(default_factory=Counter)  # requests played, per run unit
    units: dict[str, compact.Unit] | None = None  # read again on the first miss

    def recorded(self, unit: str) -> compact.Unit | None:
        """The run unit's recording (None: the cassette has none)."""
        if self.units is None:
            self.units = store.read_units(self.directory)
        return self.units.get(unit)

    def miss(self, request: Any) -> str:
        """A request the cassette cannot answer, named, with where it leaves the recording."""
        unit = header(request, RUN_UNIT_HEADER)
        index = self.answered[unit]
        return (
            f"{describe(request, index)}; {first_difference(self.recorded(unit), index, request)}"
        )

    def check(self) -> None:
        if self.misses:
            raise CassetteMiss(
                f"cassette {self.directory} has no recording for {len(self.misses)} "
                f"request(s); the first unmatched request: {self.misses[0]}"
            )


def _track_misses(cassette: Any, session: Session) -> None:
    """Note each request the cassette cannot answer (vcrpy then refuses it)."""
    can_play = cassette.can_play_response_for

    def tracked(request: Any) -> bool:
        ok = bool(can_play(request))
        if ok:
            session.answered[header(request, RUN_UNIT_HEADER)] += 1
        else:
            session.misses.append(session.miss(cassette._before_record_request(request)))
        return ok

    cassette.can_play_response_for = tracked


@contextmanager
def placeholder_keys(model: str | None = None) -> Iterator[None]:
    """Provider SDKs refuse to start without a key: lend a placeholder where none is set."""
    wanted = dict.fromkeys([*ALWAYS_LENT, *(key_vars(model) if model else ())])
    missing = [v for v in wanted if not os.environ.get(v)]
    for var in missing:
        os.environ[var] = PLACEHOLDER_KEY
    try:
        yield
    finally:
        for var in missing:
            os.environ.pop(var, None)


@contextmanager
def no_network() -> Iterator[None]:
    """Refuse every outgoing IP connection (a guard behind vcrpy's own refusal)."""
    real_connect = socket.socket.connect

    def refuse(self: socket.socket, address: Any) -> None:
        if self.family in (socket.AF_INET, socket.AF_INET6):
            raise ConnectionRefusedError(f"network blocked during cassette replay: {address}")
        real_connect(self, address)

    socket.socket.connect = refuse  # type: ignore[method-assign, assignment]
    try:
        yield
    finally:
        socket.socket.connect = real_connect  # type: ignore[method-assign]


@contextmanager
def cassette(
    directory: Path, mode: Mode, *, lend_key: bool = False, model: str | None = None
) -> Iterator[Session]:
    """Record into, or replay from, the cassette directory for the duration of the block.
    A recording is lent placeholder keys only when `lend_key` (a loopback endpoint): a live
    provider must get a real key or fail at once."""
    session = Session(directory, mode)
    if mode == "off":
        yield session
        return
    if mode == "record":
        directory.mkdir(parents=True, exist_ok=True)
        store.clear(directory)
    elif not store.cassette_files(directory):
        raise CassetteMiss(f"no cassette to replay at {directory}")
    recorder = vcr.VCR(
        serializer="json",  # handed to the persister, which writes the compact format itself
        match_on=["cc-request"],
        filter_headers=list(SECRET_HEADERS),
        before_record_request=scrub_request,
        before_record_response=scrub_response,
        decode_compressed_response=True,
    )
    recorder.register_matcher("cc-request", match)
    recorder.register_persister(UnitPersister)
    record_mode = "all" if mode == "record" else "none"
    with recorder.use_cassette(str(directory), record_mode=record_mode) as cass:
        if mode == "replay":
            _track_misses(cass, session)
            with placeholder_keys(model), no_network():
                yield session
            session.unplayed = [
                describe(req) for i, (req, _) in enumerate(cass.data) if not cass.play_counts[i]
            ]
        else:
            with placeholder_keys(model) if lend_key else nullcontext():
                yield session
