"""`core.reconcile.stream_difference`: the conversation, the Store's model turns and the
log's event stream must tell one run; each kind of disagreement is named in one line."""

from checkout_consent.core.contract import Generation
from checkout_consent.core.reconcile import ModelCall, StreamTurn, stream_difference

CALLS = [
    ModelCall(0, "view_cart", {}, "empty", False, True),
    ModelCall(1, "place_order", {"n": 1}, "paid", False, True),
]
TURNS = [
    Generation(phase=1, input_tokens=10, output_tokens=2, tool_calls=1, stop_reason="tool_calls"),
    Generation(phase=1, input_tokens=20, output_tokens=3, tool_calls=1, stop_reason="tool_calls"),
]
STREAM = [StreamTurn(1, 10, 2, "tool_calls"), StreamTurn(1, 20, 3, "tool_calls")]


def test_stream_difference__one_run_told_three_times_agrees():
    assert stream_difference(CALLS, 2, TURNS, list(CALLS), STREAM) is None
    overflow = Generation(
        phase=2, input_tokens=0, output_tokens=0, tool_calls=0, stop_reason="context_overflow"
    )
    assert stream_difference(CALLS, 2, [*TURNS, overflow], list(CALLS), STREAM) is None


def test_stream_difference__turn_counts_are_compared():
    assert stream_difference(CALLS, 3, TURNS, CALLS, STREAM) == (
        "the conversation has 3 model turn(s), the Store 2, the event stream 2"
    )


def test_stream_difference__per_turn_tool_calls_and_tokens_are_compared():
    edited = [TURNS[0], TURNS[1].model_copy(update={"tool_calls": 0})]
    said = stream_difference(CALLS, 2, edited, CALLS, STREAM)
    assert said is not None and said.startswith("model turn 1: the Store says 0 tool call(s)")
    cheaper = [TURNS[0].model_copy(update={"input_tokens": 1}), TURNS[1]]
    assert "model turn 0: the Store says 1 tool call(s), 1/2 tokens" in str(
        stream_difference(CALLS, 2, cheaper, CALLS, STREAM)
    )


def test_stream_difference__a_renamed_or_dropped_call_is_named():
    renamed = [CALLS[0], CALLS[1]._replace(tool="submit_cart", shown="sent")]
    said = str(stream_difference(renamed, 2, TURNS, CALLS, STREAM))
    assert said.startswith(
        "the model's call 1 (submit_cart {'n': 1} in turn 1, shown 'sent') "
        "is, in the event stream, place_order {'n': 1}"
    )
    assert stream_difference(CALLS[:1], 2, TURNS, CALLS, STREAM) == (
        "the conversation holds 1 tool call(s), the event stream 2"
    )
    assert (
        stream_difference(CALLS, 2, TURNS, [CALLS[0], CALLS[1]._replace(args={"n": 1.0})], STREAM)
        is None
    )  # numbers by value, as reconcile compares them
