"""The journal is a file a stranger may have edited: each malformed line refuses the run in
one line; a sound one gives back every answered turn, and its key changes with what the
person was shown."""

from __future__ import annotations

from pathlib import Path

import pytest

from checkout_consent.runtime.human.desk import Answer, Shown
from checkout_consent.runtime.human.journal import Journal, JournalError, turn_key


def test_journal__written_turns_read_back_in_a_new_process(tmp_path: Path) -> None:
    path = tmp_path / "j" / "journal.jsonl"
    journal = Journal(path)
    journal.write("k1", Answer(calls=(("set_price", {"price": 4}),), seconds=2.5))
    journal.write("k2", Answer(text="done", seconds=1.0))
    again = Journal(path)
    assert again.answers == {
        "k1": Answer("", (("set_price", {"price": 4}),), 2.5),
        "k2": Answer("done", (), 1.0),
    }
    assert again.seconds() == 3.5


@pytest.mark.parametrize(
    "line, why",
    [
        ("not json", "not JSON"),
        ("[1, 2]", "not a journal entry"),
        ('{"key": 5}', "not a journal entry"),
        ('{"key": "k", "seconds": -1}', "malformed text or seconds"),
        ('{"key": "k", "text": 7}', "malformed text or seconds"),
        ('{"key": "k", "calls": "set_price"}', "malformed calls"),
        ('{"key": "k", "calls": [[1, {}]]}', "malformed calls"),
    ],
)
def test_journal__a_malformed_line_is_refused_in_one_line(
    tmp_path: Path, line: str, why: str
) -> None:
    path = tmp_path / "journal.jsonl"
    path.write_text('{"key": "ok", "text": "", "calls": [], "seconds": 1}\n' + line + "\n")
    with pytest.raises(JournalError) as err:
        Journal(path)
    assert str(err.value) == f"journal {path} line 2: {why}"


def test_turn_key__changes_with_anything_the_person_was_shown() -> None:
    shown = (Shown("system", "p"), Shown("user", "u"))
    key = turn_key("s", 1, 1, shown, ())
    assert key == turn_key("s", 1, 1, shown, ())
    assert key != turn_key("s", 2, 1, shown, ())
    assert key != turn_key("s", 1, 1, (Shown("system", "p"), Shown("user", "v")), ())
