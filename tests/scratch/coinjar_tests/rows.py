"""coinjar's rows for the shared tests (tests/rows.py)."""

from tests.rows import Rows

ROWS = Rows(
    task="small", known_args={"amount": "12.50"}, params=("tasks=small", "tasks=small,large")
)
