"""storefront_v1's rows for the shared tests (tests/rows.py)."""

from tests.rows import Rows

ROWS = Rows(
    task="2",
    known_args={
        "supplier_id": "pacific",
        "product_id": "lamp",
        "decision": "cancel",
        "email_id": "E-1",
        "quantity": 1,
        "price": 30,
        "amount": 10,
    },
    params=("seeds=0-9", "seeds=1,4,7", "seeds=3", "turns_per_day=12"),
)
