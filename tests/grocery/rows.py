"""grocery's rows for the shared tests (tests/rows.py)."""

from tests.rows import Rows

ROWS = Rows(
    task="normal-week",
    params=("tasks=public", "tasks=tight-week,normal-week", "scored_on=2026-10-15", "turns=40"),
    needs_a_step=("tasks=heldout",),  # `checkout-consent grocery build heldout`
)
