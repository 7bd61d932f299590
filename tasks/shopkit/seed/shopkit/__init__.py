"""shopkit: a small order and inventory toolkit (money, db, orders, reports, cli)."""

__version__ = "1.0.0"
