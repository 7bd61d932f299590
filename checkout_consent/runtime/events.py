"""Inspect glue: what a sample's own event stream says the model did."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from inspect_ai.event import ModelEvent, ToolEvent
from inspect_ai.model import ChatMessageTool

from checkout_consent.core.reconcile import ModelCall, StreamTurn

_NOT_RUN = ("parsing", "approval")  # Inspect refused the call before the tool ran


def _text(result: Any) -> str:
    """A tool event's result as the model was shown it (the tool message's text)."""
    if isinstance(result, str):
        return result
    try:
        return ChatMessageTool(content=result, tool_call_id="x").text
    except Exception:  # a forged result of another shape: shown as it stands
        return str(result)


def stream(events: Sequence[Any]) -> tuple[list[ModelCall], list[StreamTurn]]:
    """Every tool call of the model events, with its result, and a StreamTurn per model event."""
    calls: list[ModelCall] = []
    turns: list[StreamTurn] = []
    open_calls: dict[str, int] = {}
    for event in events:
        if isinstance(event, ModelEvent):
            output = event.output
            if event.pending or event.error is not None or not output.choices:
                continue
            usage = output.usage
            made = output.message.tool_calls or []
            turns.append(
                StreamTurn(
                    len(made),
                    usage.input_tokens if usage else 0,
                    usage.output_tokens if usage else 0,
                    str(output.stop_reason),
                )
            )
            open_calls = {}
            for tc in made:
                open_calls[tc.id] = len(calls)
                calls.append(
                    ModelCall(
                        len(turns) - 1, tc.function, dict(tc.arguments or {}), None, False, False
                    )
                )
        elif isinstance(event, ToolEvent) and not event.pending and event.id in open_calls:
            i, error = open_calls.pop(event.id), event.error
            if event.function != calls[i].tool:  # the tool that ran is not the one called
                calls[i] = calls[i]._replace(tool=f"{calls[i].tool} (run as {event.function})")
            calls[i] = calls[i]._replace(
                shown=error.message if error else _text(event.result),
                error=error is not None,
                reached=error is None or error.type not in _NOT_RUN,
            )
    return calls, turns
