"""shopkit's rows for the shared tests (tests/rows.py)."""

from tests.rows import Rows

ROWS = Rows(
    task="T1",
    known_args={
        "path": "shopkit/money.py",
        "args": "stock",
        "old_text": "def",
        "new_text": "def",
        "code": "print(1)",
    },
    params=("task=T1", "task=T1,T3", "task=all", "brief=Fix the refund rounding.", "turns=40"),
)
