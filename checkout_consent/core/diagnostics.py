"""What a real model broke in a run, counted (every record's `diagnostics`, when any)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from pydantic import BaseModel, ConfigDict

from checkout_consent.core.contract import Generation

KEY = "diagnostics"  # the record's key for the block
MAX_SCANNED_CHARS = 20_000  # of one reply's text: a longer reply is scanned this far
MAX_CANDIDATES = 200  # '{' positions tried in one reply
REASON_CHARS = 300  # of a context overflow's reason
_OPENERS = re.compile(r"\{")
_UNKNOWN_TOOL = re.compile(r"^Tool \S{1,200} not found$")
OVERFLOW_STOPS = ("context_overflow", "model_length")


class Reply(NamedTuple):
    """One assistant message as the model sent it: its text and how many calls it made."""

    text: str
    calls: int


class Refusal(NamedTuple):
    """A tool result Inspect wrote without running the tool: its error type and message."""

    kind: str
    message: str


class Diagnostics(BaseModel):
    """Counts of what the harness could not take as the model meant it (all zero: none)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    text_tool_calls: int = 0  # calls written as JSON text in a reply: not run, not scored
    empty_replies: int = 0  # replies with no text and no tool call
    unknown_tools: int = 0  # calls naming a tool the model was not offered
    bad_arguments: int = 0  # calls whose arguments Inspect could not parse or validate
    context_overflow: str | None = None  # why the conversation ended past the context

    def block(self) -> dict[str, Any]:
        """The record's `diagnostics` block: only what was counted ({} when nothing)."""
        return self.model_dump(exclude_defaults=True)


def _is_call(value: object) -> bool:
    return (
        isinstance(value, dict)
        and isinstance(value.get("name"), str)
        and isinstance(value.get("arguments", value.get("parameters")), dict | str)
    )


def text_tool_calls(text: str) -> int:
    """How many tool calls a reply's text holds as JSON objects (a `name` and `arguments`)."""
    decoder = json.JSONDecoder()
    scanned = text[:MAX_SCANNED_CHARS]
    found, position, tried = 0, 0, 0
    while tried < MAX_CANDIDATES and (opener := _OPENERS.search(scanned, position)):
        tried += 1
        start = opener.start()
        try:
            value, end = decoder.raw_decode(scanned, start)
        except ValueError:
            value, end = None, start + 1
        if _is_call(value):
            found += 1
            position = end
        else:  # not a call (or not JSON): a call may still be nested inside it
            position = start + 1
    return found


def overflow_reason(turns: Sequence[Generation]) -> str | None:
    """Why the run ended past the model's context, from the turn that recorded it."""
    for turn in turns:
        if turn.stop_reason in OVERFLOW_STOPS:
            if turn.detail:
                return " ".join(turn.detail.split())[:REASON_CHARS]
            if turn.stop_reason == "model_length":
                return "the reply was cut at the model's length limit"
            return "the sample's token limit was reached"
    return None


def diagnose(
    replies: Iterable[Reply], refusals: Iterable[Refusal], turns: Sequence[Generation]
) -> Diagnostics:
    """The run's diagnostics from its replies, Inspect's refused calls and its model turns."""
    texts = empties = unknown = bad = 0
    for reply in replies:
        texts += text_tool_calls(reply.text)
        empties += int(not reply.text.strip() and not reply.calls)
    for refusal in refusals:
        if refusal.kind == "parsing":
            is_unknown = bool(_UNKNOWN_TOOL.fullmatch(refusal.message.strip()))
            unknown += int(is_unknown)
            bad += int(not is_unknown)
    return Diagnostics(
        text_tool_calls=texts,
        empty_replies=empties,
        unknown_tools=unknown,
        bad_arguments=bad,
        context_overflow=overflow_reason(turns),
    )
