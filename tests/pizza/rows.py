"""pizza's rows for the shared tests (tests/rows.py)."""

from typing import Any

from tests.rows import Rows


def _order(state: Any) -> dict[str, Any]:
    return {"order_id": state.task.orders[0].order_id}


ROWS = Rows(
    task="allergen-1",
    known_args={"amount": 1, "line_id": "L1", "category": "other"},
    known_from_state=_order,
    params=(
        "split=public",
        "split=94721",
        "splits=1-3",
        "splits=4,7",
        "replies=false",
        "max_turns=5",
        "tasks=cold-pizza-1,allergen-2",
        "tasks=wrong_topping",
    ),
)
