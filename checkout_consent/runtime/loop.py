"""Inspect glue: one model turn of the agent loop every family's solver runs (the pacing
around it is core/pacing.py). Generate, record the turn, run the tool calls."""

from __future__ import annotations

import json
from collections.abc import Sequence

from inspect_ai.model import GenerateConfig, Model, execute_tools
from inspect_ai.solver import TaskState
from inspect_ai.tool import ToolDef
from inspect_ai.util import LimitExceededError

from checkout_consent.core.controls import SCENARIO_HEADER
from checkout_consent.core.family import Generation
from checkout_consent.core.pacing import TracedCall, Turned
from checkout_consent.runtime.store import live, record_generation


def run_config(state: TaskState) -> GenerateConfig:
    """Per-sample generate config: tags each request with its run unit (for cassettes) and
    its scenario reference (for `serve-controls`, whose controls read the scenario from
    structure). Headers are never shown to the model."""
    scenario = json.dumps(state.metadata["scenario"], sort_keys=True, separators=(",", ":"))
    return GenerateConfig(
        extra_headers={
            "x-cc-run-unit": f"{state.sample_id}-{state.epoch}",
            SCENARIO_HEADER: scenario,
        }
    )


def traced_since(before: int) -> tuple[TracedCall, ...]:
    """The calls the sample's trace gained since it held `before`."""
    return tuple(
        TracedCall(c["tool"], c["args"], c["ok"], c["observation"]) for c in live().calls[before:]
    )


async def take_turn(
    state: TaskState,
    tools: Sequence[ToolDef],
    model: Model,
    config: GenerateConfig,
    *,
    phase: int,
    window: int = 0,
) -> Turned:
    """One model turn within `phase`: generate, record the turn, run its tool calls.

    After a context trim the model is sent the opening two messages and those from
    `window` on; the sample keeps (and the log shows) every message. A context overflow
    (the limit, or a reply cut at the model's length) is reported, its calls not run.
    """
    seen = state.messages if not window else [*state.messages[:2], *state.messages[window:]]
    try:
        output = await model.generate(seen, list(tools), config=config)
    except LimitExceededError:
        record_generation(
            Generation(
                phase=phase,
                input_tokens=0,
                output_tokens=0,
                tool_calls=0,
                stop_reason="context_overflow",
            )
        )
        return Turned(overflow=True)
    state.messages.append(output.message)
    state.output = output
    calls = output.message.tool_calls or []
    usage = output.usage
    record_generation(
        Generation(
            phase=phase,
            input_tokens=usage.input_tokens if usage else 0,
            output_tokens=usage.output_tokens if usage else 0,
            tool_calls=len(calls),
            stop_reason=str(output.stop_reason),
            latency_s=round(float(output.time or 0.0), 6),  # the provider's wall time: provenance
        )
    )
    if output.stop_reason == "model_length":
        return Turned(overflow=True)
    if not calls:
        return Turned()
    before = len(live().calls)
    result = await execute_tools(state.messages, list(tools))
    state.messages.extend(result.messages)
    return Turned(traced_since(before), asked=True)
