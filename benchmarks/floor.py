"""Inspect's own floor for a shape of work: SAMPLES samples, each making TURNS model turns
that together make CALLS tool calls, through a model provider (mockllm, scripted) to a tool
that does nothing, with a scorer that does nothing. What a family costs above this is ours.

A shape may also carry a payload: each call's arguments hold ARG_CHARS characters of text
and each result RESULT_CHARS (distinct words, so Inspect neither dedupes nor compresses
them better than real text). Inspect's work per event grows with what the messages hold
(every model event logs the conversation so far), so a family whose tools show pages of
text costs more than the bare floor in Inspect itself; the payload floor carries that too.

    inspect eval benchmarks/floor.py -T samples=10 -T turns=15 -T calls=15 --model mockllm/model
    inspect eval benchmarks/floor.py -T samples=2 -T turns=30 -T calls=670 -T arg_chars=42 \
        -T result_chars=142 --model mockllm/model
    python benchmarks/floor.py 10x15x15 40x3x2     # several shapes, one after another, one process

The shape of a family (turns and calls per sample) comes from `benchmarks/families.py`,
which plays the family's reference control offline to count them.
"""

from __future__ import annotations

import sys
import tempfile
from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import Sample
from inspect_ai.model import (
    ChatMessageAssistant,
    ChatMessageUser,
    ModelOutput,
    ModelUsage,
    execute_tools,
    get_model,
)
from inspect_ai.scorer import Score, Target, mean, scorer
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.tool import ToolCall, ToolDef


def calls_in_turn(turn: int, turns: int, calls: int) -> int:
    """Spread `calls` over `turns` turns as evenly as integers allow."""
    return calls * (turn + 1) // turns - calls * turn // turns


WORDS = (
    "order",
    "supplier",
    "cash",
    "refund",
    "invoice",
    "day",
    "price",
    "stock",
    "fee",
    "email",
    "lamp",
    "kettle",
    "total",
    "paid",
    "pending",
    "shipped",
    "report",
    "owner",
)


def filler(chars: int, salt: int) -> str:
    """`chars` characters of words, different for each salt (no two payloads alike)."""
    out, k, length = [], salt, -1  # length: of the words joined by spaces
    while length < chars:
        k = (k * 1103515245 + 12345) % 2**31
        out.append(WORDS[k % len(WORDS)] + str(k % 97))
        length += len(out[-1]) + 1
    return " ".join(out)[:chars]


def scripted(turns: int, calls: int, arg_chars: int = 0) -> Any:
    """mockllm outputs: turn i (counted from the input) makes its share of the calls."""

    def output(messages: list[Any], *_: Any) -> ModelOutput:
        turn = sum(isinstance(m, ChatMessageAssistant) for m in messages)
        n = calls_in_turn(turn, turns, calls)
        tool_calls = [
            ToolCall(
                id=f"call_{turn}_{i}",
                function="noop",
                arguments=(
                    {"x": i, "text": filler(arg_chars, turn * 1000 + i)} if arg_chars else {"x": i}
                ),
            )
            for i in range(n)
        ]
        out = (
            ModelOutput.for_tool_call("mockllm/model", "noop", {})
            if n
            else ModelOutput.from_content("mockllm/model", "done")
        )
        out.choices[0].message.tool_calls = tool_calls or None
        out.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return out

    return output


def noop_tool(result_chars: int = 0) -> ToolDef:
    made = [0]

    async def noop(x: int, text: str = "") -> str:
        """Do nothing.

        Args:
            x: ignored.
            text: ignored.
        """
        made[0] += 1
        return filler(result_chars, 7 * made[0] + x) if result_chars else "ok"

    return ToolDef(noop, name="noop")


@solver
def floor_solver(turns: int, calls: int, arg_chars: int = 0, result_chars: int = 0) -> Solver:
    async def solve(state: TaskState, generate: Generate) -> TaskState:
        model = get_model("mockllm/model", custom_outputs=scripted(turns, calls, arg_chars))
        tools = [noop_tool(result_chars)]
        for _ in range(turns):
            output = await model.generate(state.messages, tools)
            state.messages.append(output.message)
            state.output = output
            if output.message.tool_calls:
                result = await execute_tools(state.messages, tools)
                state.messages.extend(result.messages)
            else:
                state.messages.append(ChatMessageUser(content="go on"))
        return state

    return solve


@scorer(metrics=[mean()])
def nothing() -> Any:
    async def score(state: TaskState, target: Target) -> Score:
        return Score(value=1.0)

    return score


@task
def floor(
    samples: int = 10, turns: int = 15, calls: int = 15, arg_chars: int = 0, result_chars: int = 0
) -> Task:
    """The floor task for one shape (and payload)."""
    dataset = [Sample(id=i, input="start") for i in range(int(samples))]
    solver = floor_solver(int(turns), int(calls), int(arg_chars), int(result_chars))
    return Task(dataset=dataset, solver=solver, scorer=nothing())


def shape(text: str) -> tuple[int, int, int]:
    """`SAMPLESxTURNSxCALLS` -> the three integers."""
    samples, turns, calls = (int(v) for v in text.split("x"))
    return samples, turns, calls


def main(shapes: list[str], log_realtime: bool = True) -> None:
    """Run the floor of each shape, one after another, in this process."""
    from inspect_ai import eval as inspect_eval

    with tempfile.TemporaryDirectory() as logs:
        for text in shapes:
            samples, turns, calls = shape(text)
            inspect_eval(
                floor(samples, turns, calls),
                model="mockllm/model",
                log_dir=logs,
                display="none",
                log_realtime=log_realtime,
                score_display=False,
            )


if __name__ == "__main__":
    args = sys.argv[1:]
    quiet = "--no-log-realtime" in args
    main([a for a in args if a != "--no-log-realtime"], log_realtime=not quiet)
