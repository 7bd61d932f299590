"""Cassettes: record a run's provider HTTP traffic with vcrpy, or replay it keylessly.

record  runs live; every request and response the openai / anthropic SDKs exchange is
        saved (scrubbed) under cassettes/<family>/<model-slug>/.
replay  serves the responses from the cassette: no network, placeholder keys, no retries.
        The first request the cassette does not hold fails the run at once, naming the
        cassette and that request.
"""

from __future__ import annotations

import os
import socket
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import vcr

from checkout_consent.cassettes import Mode, compact, store
from checkout_consent.cassettes.explain import first_difference
from checkout_consent.cassettes.match import (
    RUN_UNIT_HEADER,
    SECRET_HEADERS,
    describe,
    header,
    match,
    scrub_request,
    scrub_response,
)
from checkout_consent.cassettes.preflight import key_vars
from checkout_consent.runtime.runner import RunFailed

PLACEHOLDER_KEY = "placeholder-no-key"
KEY_VARS = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY")
# On replay: one attempt per request (Inspect and the SDK would otherwise retry a miss,
# which the SDK reports as a connection error, for a very long time); no live sample buffer
# for `inspect view` (about a quarter of a replay's time; the log is still written whole).
REPLAY_EVAL_ARGS: dict[str, Any] = {"max_retries": 0, "timeout": 60, "log_realtime": False}
REPLAY_MODEL_ARGS: dict[str, Any] = {"max_retries": 0}


class CassetteMiss(RunFailed):
    """A replayed run asked for a request its cassette does not hold."""


@dataclass
class Session:
    """One cassette in use: where it lives, the requests it could not answer and (after a
    replay) the recorded requests the run never made."""

    directory: Path
    mode: Mode
    misses: list[str] = field(default_factory=list)
    unplayed: list[str] = field(default_factory=list)
    answered: Counter[str] = field(default_factory=Counter)  # requests played, per run unit
    units: dict[str, compact.Unit] | None = None  # read again on the first miss

    def recorded(self, unit: str) -> compact.Unit | None:
        """The run unit's recording, whichever format (None: the cassette has none)."""
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


def _vcr() -> vcr.VCR:
    recorder = vcr.VCR(
        serializer="cc-safe-yaml",
        match_on=["cc-request"],
        filter_headers=list(SECRET_HEADERS),
        before_record_request=scrub_request,
        before_record_response=scrub_response,
        decode_compressed_response=True,
    )
    recorder.register_serializer("cc-safe-yaml", store.SafeYaml)
    recorder.register_matcher("cc-request", match)
    recorder.register_persister(store.UnitPersister)
    return recorder


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
    """Provider SDKs refuse to start without a key: lend them a placeholder if none is set
    (for `model`, its own provider's variables too: LLAMA_API_KEY for openai-api/llama/...)."""
    wanted = dict.fromkeys([*KEY_VARS, *(key_vars(model) if model else ())])
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
    A recording is lent placeholder keys only when `lend_key` (a loopback endpoint such as
    serve-controls or a local llama-server): a live provider must get a real key or fail at
    once. `model`: whose provider's key variables are lent too."""
    session = Session(directory, mode)
    if mode == "off":
        yield session
        return
    if mode == "record":
        directory.mkdir(parents=True, exist_ok=True)
        store.clear(directory)
    elif not store.cassette_files(directory):
        raise CassetteMiss(f"no cassette to replay at {directory}")
    record_mode = "all" if mode == "record" else "none"
    with _vcr().use_cassette(str(directory), record_mode=record_mode) as cass:
        if mode == "replay":
            _track_misses(cass, session)
            with placeholder_keys(model), no_network():
                yield session
            session.unplayed = [
                describe(req) for i, (req, _) in enumerate(cass.data) if not cass.play_counts[i]
            ]
        elif lend_key:
            with placeholder_keys(model):
                yield session
        else:
            yield session
