"""storefront_v1's rows for the shared tests (tests/rows.py)."""

from tests.rows import Rows
from tests.storefront.rows import ROWS as STOREFRONT

ROWS = Rows(
    task="2",
    known_args={**STOREFRONT.known_args, "amount": 10},  # the same store, and its money
    params=("seeds=0-9", "seeds=1,4,7", "seeds=3", "turns_per_day=12"),
)
