"""Inspect glue: one model turn of the agent loop (generate, record, run the tool calls)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from inspect_ai.model import GenerateConfig, Model, ModelOutput, execute_tools
from inspect_ai.solver import TaskState
from inspect_ai.tool import ToolDef
from inspect_ai.util import LimitExceededError

from checkout_consent.core.contract import Generation
from checkout_consent.core.controls import SCENARIO_HEADER
from checkout_consent.core.pacing import TracedCall, Turned
from checkout_consent.runtime.store import live, record_generation


def run_config(state: TaskState) -> GenerateConfig:
    """Per-sample generate config: each request's run unit (for cassettes) and scenario
    reference (for `serve-controls`), as headers the model never sees."""
    scenario = json.dumps(state.metadata["scenario"], sort_keys=True, separators=(",", ":"))
    return GenerateConfig(
        extra_headers={
            "x-cc-run-unit": f"{state.sample_id}-{state.epoch}",
            SCENARIO_HEADER: scenario,
        }
    )


# Error types an OpenAI-compatible server answers HTTP 400 with when a request is longer than
# the model's context (llama.cpp's `llama-server`); Inspect's provider raises them (it maps
# only OpenAI's own `context_length_exceeded` code to a `model_length` stop).
CONTEXT_ERROR_TYPES = frozenset({"exceed_context_size_error"})
# What vLLM says in the message of the same refusal (its error type is a generic one).
CONTEXT_ERROR_PHRASES = ("maximum context length",)


def context_refusal(err: BaseException) -> str | None:
    """The server's reason when `err` is its refusal of a request past the model's context."""
    cause = err.__cause__ if err.__cause__ is not None else err
    body = getattr(cause, "body", None)
    if getattr(cause, "status_code", None) != 400 or not isinstance(body, dict):
        return None
    message = str(body.get("message", ""))[:1000]
    if body.get("type") in CONTEXT_ERROR_TYPES:
        extra = [
            f"{k} {body[k]}" for k in ("n_prompt_tokens", "n_ctx") if isinstance(body.get(k), int)
        ]
        return f"{message} ({', '.join(extra)})" if extra else message
    return message if any(p in message.lower() for p in CONTEXT_ERROR_PHRASES) else None


def overflowed(phase: int, reason: str | None) -> Turned:
    """Record a turn the model never took because its context was full; end the phases."""
    record_generation(
        Generation(
            phase=phase,
            input_tokens=0,
            output_tokens=0,
            tool_calls=0,
            stop_reason="context_overflow",
            detail=reason,
        )
    )
    return Turned(overflow=True)


async def generate(
    model: Model, seen: list[Any], tools: Sequence[ToolDef], config: GenerateConfig, phase: int
) -> ModelOutput | Turned:
    """The model's output, or the overflow recorded when the context could not take it."""
    try:
        return await model.generate(seen, list(tools), config=config)
    except LimitExceededError:
        return overflowed(phase, None)
    except RuntimeError as err:
        reason = context_refusal(err)
        if reason is None:
            raise
        return overflowed(phase, f"the server refused the request: {reason}")


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
    """One model turn within `phase`: generate, record the turn, run its tool calls. After
    a trim the model is sent the opening two messages and those from `window` on; after a
    context overflow its calls are not run."""
    seen = state.messages if not window else [*state.messages[:2], *state.messages[window:]]
    output = await generate(model, seen, tools, config, phase)
    if isinstance(output, Turned):
        return output
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
