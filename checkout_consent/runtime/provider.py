"""Inspect glue: the `control` model provider (`--model control/<family>-<name>`)."""

from __future__ import annotations

import json
from typing import Any

from inspect_ai.model import (
    ChatCompletionChoice,
    ChatMessage,
    ChatMessageAssistant,
    ChatMessageTool,
    GenerateConfig,
    ModelAPI,
    ModelOutput,
    ModelUsage,
)
from inspect_ai.tool import ToolCall, ToolChoice, ToolInfo

from checkout_consent.core.controls import (
    CallRequest,
    ControlRegistry,
    Msg,
    Reply,
    call_ids,
    count_tokens,
    transcript_tokens,
)
from checkout_consent.runtime.compat import prerequisite_error
from checkout_consent.runtime.store import live


def to_msg(message: ChatMessage) -> Msg:
    """An Inspect chat message as a control sees it."""
    text = message.text
    if isinstance(message, ChatMessageAssistant):
        calls = tuple(
            CallRequest(c.id, c.function, dict(c.arguments)) for c in message.tool_calls or []
        )
        return Msg("assistant", text, calls)
    if isinstance(message, ChatMessageTool):
        error = message.error.message if message.error else ""
        return Msg("tool", text or error, call_id=message.tool_call_id, error=bool(error))
    return Msg(message.role, text)  # type: ignore[arg-type]


def reply_output(model: str, transcript: list[Msg], reply: Reply) -> ModelOutput:
    """A control's reply as an Inspect ModelOutput, with deterministic ids and usage."""
    ids = call_ids(transcript, reply)
    tool_calls = [
        ToolCall(id=i, function=t, arguments=a) for i, (t, a) in zip(ids, reply.calls, strict=True)
    ]
    message = ChatMessageAssistant(
        content=reply.text, tool_calls=tool_calls or None, model=model, source="generate"
    )
    out_tokens = count_tokens(reply.text + json.dumps([list(c) for c in reply.calls]))
    in_tokens = transcript_tokens(transcript)
    return ModelOutput(
        model=model,
        choices=[
            ChatCompletionChoice(
                message=message, stop_reason="tool_calls" if tool_calls else "stop"
            )
        ],
        usage=ModelUsage(
            input_tokens=in_tokens, output_tokens=out_tokens, total_tokens=in_tokens + out_tokens
        ),
    )


def control_api(registry: ControlRegistry) -> type[ModelAPI]:
    """A ModelAPI class that plays the controls of `registry`."""

    class ControlModelAPI(ModelAPI):
        def __init__(
            self,
            model_name: str,
            base_url: str | None = None,
            api_key: str | None = None,
            config: GenerateConfig | None = None,
            **model_args: Any,
        ) -> None:
            super().__init__(model_name, base_url, api_key, [], config or GenerateConfig())
            try:
                self.policy = registry.get(model_name)
            except KeyError as err:
                raise prerequisite_error()(str(err.args[0])) from None

        async def generate(
            self,
            input: list[ChatMessage],
            tools: list[ToolInfo],
            tool_choice: ToolChoice,
            config: GenerateConfig,
        ) -> ModelOutput:
            transcript = [to_msg(m) for m in input]
            scenario = live().scenario
            refusal = registry.refusal(self.model_name, scenario.world)
            if refusal is not None:
                raise prerequisite_error()(refusal)
            return reply_output(self.model_name, transcript, self.policy(scenario, transcript))

        def max_tokens(self) -> int | None:
            return None

        @property
        def control_family(self) -> str | None:
            """The family this control plays; None for one that plays every family."""
            return registry.owner(self.model_name)

    return ControlModelAPI
