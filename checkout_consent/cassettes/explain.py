"""Why a replayed request missed: the live request's digests recomputed and set against the
recorded request at the same place in its run unit, down to the first differing message."""

from __future__ import annotations

from typing import Any

from checkout_consent.cassettes import compact, digest
from checkout_consent.cassettes.match import canonical_body


def _message_line(k: int, live: list[Any], recorded: list[str]) -> str:
    if k >= len(live):
        return (
            f"the recording has message {k} (digest {recorded[k]}) and more: "
            f"{len(recorded)} message(s), the run sent {len(live)}"
        )
    shown = digest.summarise(live[k], 120)
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
    live = digest.parts(canonical_body(request.body))
    recorded = compact.messages_of(unit, index)
    now = digest.message_digests(live.messages)
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
