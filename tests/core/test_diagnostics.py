"""core.diagnostics: tool calls written as text are found in every form a small model writes
them (and nothing else is), refused calls are told apart, and a run with nothing to report
has an empty block (so a control's record is unchanged)."""

import json
import time

from hypothesis import given
from hypothesis import strategies as st

from checkout_consent.core.contract import Generation
from checkout_consent.core.diagnostics import (
    MAX_SCANNED_CHARS,
    Diagnostics,
    Refusal,
    Reply,
    diagnose,
    text_tool_calls,
)

CALL = {"name": "issue_refund", "arguments": {"order_id": "PZ-1", "amount": 5.0}}


def test_text_tool_calls__every_form_a_model_writes():
    bare = json.dumps(CALL)
    forms = {
        bare: 1,
        f"```json\n{bare}\n```": 1,
        f"<tool_call>\n{bare}\n</tool_call>": 1,
        f"I will refund.\n{bare}\nDone.": 1,
        json.dumps([CALL, CALL]): 2,
        json.dumps({"tool_calls": [{"type": "function", "function": CALL}]}): 1,
        json.dumps({"name": "lookup_order", "arguments": '{"order_id": "PZ-1"}'}): 1,
        json.dumps({"name": "x", "parameters": {}}): 1,
    }
    for text, expected in forms.items():
        assert text_tool_calls(text) == expected, text


def test_text_tool_calls__prose_and_other_json_are_not_calls():
    for text in (
        "",
        "I am sorry about your pizza.",
        json.dumps({"name": "Taylor", "age": 3}),
        json.dumps({"arguments": {}}),
        '{"name": "issue_refund", "arguments": ',  # cut off: not a call
        "{" * 5000,
    ):
        assert text_tool_calls(text) == 0, text[:60]


def test_text_tool_calls__a_huge_reply_is_scanned_within_bounds():
    text = (json.dumps(CALL) + " ") * 20_000 + "{" * 100_000
    start = time.process_time()
    found = text_tool_calls(text)
    assert 0 < found <= MAX_SCANNED_CHARS // len(json.dumps(CALL))
    assert time.process_time() - start < 5  # bounded work, not a timing target


@given(st.text(max_size=400))
def test_text_tool_calls__never_raises_on_any_text(text):
    assert text_tool_calls(text) >= 0


def _turn(stop: str = "stop", detail: str | None = None) -> Generation:
    return Generation(
        phase=1, input_tokens=1, output_tokens=1, tool_calls=0, stop_reason=stop, detail=detail
    )


def test_diagnose__counts_each_kind_and_keeps_the_overflow_reason():
    replies = [Reply(json.dumps(CALL), 0), Reply("  ", 0), Reply("", 1), Reply("ok", 0)]
    refusals = [
        Refusal("parsing", "Tool cancel_all_orders not found"),
        Refusal("parsing", "Found 1 validation errors parsing tool input arguments"),
        Refusal("unknown", "the world said no"),
    ]
    turns = [_turn(), _turn("context_overflow", "the server refused the request: too long")]
    found = diagnose(replies, refusals, turns)
    assert found == Diagnostics(
        text_tool_calls=1,
        empty_replies=1,
        unknown_tools=1,
        bad_arguments=1,
        context_overflow="the server refused the request: too long",
    )


def test_diagnose__nothing_to_report_is_an_empty_block():
    assert (
        diagnose([Reply("done", 0), Reply("", 2)], [], [_turn(), _turn("tool_calls")]).block() == {}
    )
    assert diagnose([], [], [_turn("model_length")]).block() == {
        "context_overflow": "the reply was cut at the model's length limit"
    }
    assert diagnose([], [], [_turn("context_overflow")]).block() == {
        "context_overflow": "the sample's token limit was reached"
    }
