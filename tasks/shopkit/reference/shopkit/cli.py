"""The command line: python -m shopkit.cli invoice|total|overdue|stock ..."""

import datetime
import sys

from shopkit import db, orders, reports
from shopkit.money import fmt

USAGE = "usage: shopkit invoice ORDER | total ORDER | overdue YYYY-MM-DD | stock"


def run(args):
    if len(args) == 2 and args[0] == "invoice":
        return reports.invoice(args[1])
    if len(args) == 2 and args[0] == "total":
        return fmt(orders.total(db.order(args[1])))
    if len(args) == 2 and args[0] == "overdue":
        found = reports.overdue(datetime.date.fromisoformat(args[1]))
        return "\n".join(found) if found else "no overdue orders"
    if args == ["stock"]:
        rows = reports.stock_report()
        return "\n".join(f"{s}: {n} on hand, {r} reserved, {a} free" for s, n, r, a in rows)
    raise ValueError(USAGE)


def main(argv=None):
    """Run one command; print its result. Returns the exit code (2 on any error)."""
    try:
        print(run(list(sys.argv[1:] if argv is None else argv)))
    except (ValueError, db.NotFound) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
