"""What both wire formats of `serve-controls` share: deterministic ids and token usage."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from checkout_consent.core.controls import Msg, Reply, count_tokens, transcript_tokens

FIXED_CREATED = 1_700_000_000  # the `created` stamp of every served completion


def request_id(body: dict[str, Any]) -> str:
    """A response id derived from the request alone, so a re-recording is byte-identical."""
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()[:24]


def usage_of(msgs: list[Msg], reply: Reply) -> tuple[int, int]:
    """(input, output) tokens, counted as the in-process `control` provider counts them."""
    out_tokens = count_tokens(reply.text + json.dumps([list(c) for c in reply.calls]))
    return transcript_tokens(msgs), out_tokens
