"""Inspect glue: the agent loop every family's solver uses. Generate, run the tool calls,
record each turn; stop on a stop tool, a reply without calls, the turn budget or overflow."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Literal, NamedTuple

from inspect_ai.model import ChatMessageUser, GenerateConfig, execute_tools, get_model
from inspect_ai.solver import TaskState
from inspect_ai.tool import ToolDef
from inspect_ai.util import LimitExceededError

from checkout_consent.core.controls import SCENARIO_HEADER
from checkout_consent.core.family import Generation
from checkout_consent.runtime.store import live, record_generation

EndedBy = Literal["stop_tool", "reply", "budget", "overflow"]


class TurnsResult(NamedTuple):
    turns: int
    ended_by: EndedBy


def _stop_tool_succeeded(before: int, stop_tools: set[str]) -> bool:
    return any(c["ok"] and c["tool"] in stop_tools for c in live().calls[before:])


def run_config(state: TaskState) -> GenerateConfig:
    """Per-sample generate config: tags each request with its run unit (for cassettes) and
    its scenario reference (for `serve-controls`, whose controls read the scenario from
    structure). Headers are never shown to the model."""
    scenario = json.dumps(state.metadata["scenario"], sort_keys=True, separators=(",", ":"))
    return GenerateConfig(extra_headers={"x-cc-run-unit": f"{state.sample_id}-{state.epoch}",
                                         SCENARIO_HEADER: scenario})


async def play_turns(
    state: TaskState,
    tools: Sequence[ToolDef],
    *,
    phase: int,
    budget: int,
    stop_tools: Sequence[str] = (),
    nudge: str | None = None,
    window: int = 0,
) -> TurnsResult:
    """Let the model act for at most `budget` turns within one phase (a day, an episode).

    A reply without tool calls ends the phase, unless `nudge` is given: then the nudge is
    sent as a user message and the phase goes on (the turn still counts). After a context
    trim the model is sent the opening two messages and those from `window` on; the
    sample keeps (and the log shows) every message.
    """
    model = get_model()
    config = run_config(state)
    for turn in range(1, budget + 1):
        seen = state.messages if not window else [*state.messages[:2],
                                                  *state.messages[window:]]
        try:
            output = await model.generate(seen, list(tools), config=config)
        except LimitExceededError:
            record_generation(Generation(phase=phase, input_tokens=0, output_tokens=0,
                                         tool_calls=0, stop_reason="context_overflow"))
            return TurnsResult(turn, "overflow")
        state.messages.append(output.message)
        state.output = output
        calls = output.message.tool_calls or []
        usage = output.usage
        record_generation(Generation(
            phase=phase,
            input_tokens=usage.input_tokens if usage else 0,
            output_tokens=usage.output_tokens if usage else 0,
            tool_calls=len(calls),
            stop_reason=str(output.stop_reason),
            latency_s=round(float(output.time or 0.0), 6),  # the provider's wall time: provenance
        ))
        if output.stop_reason == "model_length":
            return TurnsResult(turn, "overflow")
        if not calls:
            if nudge is None:
                return TurnsResult(turn, "reply")
            state.messages.append(ChatMessageUser(content=nudge))
            continue
        before = len(live().calls)
        result = await execute_tools(state.messages, list(tools))
        state.messages.extend(result.messages)
        if _stop_tool_succeeded(before, set(stop_tools)):
            return TurnsResult(turn, "stop_tool")
    return TurnsResult(budget, "budget")
