"""benchmarks/floor.py, the reference every family's ratio is taken against: its shape and
its payload are what it says."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import floor  # noqa: E402


def test_filler__is_exactly_as_long_as_asked_and_differs_by_salt() -> None:
    texts = [floor.filler(142, salt) for salt in range(50)]
    assert all(len(t) == 142 for t in texts) and len(set(texts)) == 50
    assert floor.filler(0, 3) == ""


@pytest.mark.inspect
def test_floor__makes_the_calls_of_its_shape_carrying_its_payload(tmp_path: Path) -> None:
    log = inspect_eval(
        floor.floor(samples=2, turns=3, calls=5, arg_chars=40, result_chars=90),
        model="mockllm/model",
        log_dir=str(tmp_path),
        display="none",
    )[0]
    assert log.status == "success" and log.samples is not None and len(log.samples) == 2
    for sample in log.samples:
        calls = [c for m in sample.messages if m.role == "assistant" for c in m.tool_calls or []]
        results = [m.text for m in sample.messages if m.role == "tool"]
        assert len(calls) == 5 and len(results) == 5
        assert all(len(c.arguments["text"]) == 40 for c in calls)
        assert all(len(r) == 90 for r in results) and len(set(results)) == 5
