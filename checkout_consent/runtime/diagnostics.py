"""Inspect glue: the facts `core.diagnostics` counts, read from a sample's conversation."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from inspect_ai.model import ChatMessage, ChatMessageAssistant, ChatMessageTool

from checkout_consent.core.contract import Generation
from checkout_consent.core.diagnostics import Refusal, Reply, diagnose


def run_diagnostics(messages: Sequence[ChatMessage], turns: Sequence[Generation]) -> dict[str, Any]:
    """The record's `diagnostics` block for a sample ({} when there is nothing to report)."""
    replies = [
        Reply(m.text, len(m.tool_calls or []))
        for m in messages
        if isinstance(m, ChatMessageAssistant)
    ]
    refusals = [
        Refusal(m.error.type, m.error.message)
        for m in messages
        if isinstance(m, ChatMessageTool) and m.error is not None
    ]
    return diagnose(replies, refusals, turns).block()
