"""Golden records (written by make_golden.py from executed controls) still reproduce."""

from __future__ import annotations

import json

from tests.grocery.make_golden import PATH, golden


def test_golden__every_control_record_matches_the_committed_file() -> None:
    assert golden() == json.loads(PATH.read_text(encoding="utf-8"))
