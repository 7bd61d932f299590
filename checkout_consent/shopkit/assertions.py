"""The assertion sets: `change` per task, the seed's `regress` 13 and our `regress_extra`
(never pooled). Each is a probe whose expected value is what the reference build gives."""

from __future__ import annotations

import math
from typing import Any, Literal, NamedTuple

Compare = Literal["same", "cli"]
Value = list[Any]  # an encoded observation: [tag, ...], see sandbox_script._encode


class Probe(NamedTuple):
    """One assertion: a name, what it checks, the expression and how to compare."""

    name: str
    checks: str
    expr: str
    compare: Compare = "same"


_p = Probe


T1 = (
    _p("fmt_rounds_1_15", "fmt rounds 1.15 to the cent", "money.fmt(1.15)"),
    _p("fmt_rounds_0_29", "fmt rounds 0.29 to the cent", "money.fmt(0.29)"),
    _p("fmt_thousands", "fmt groups thousands", "money.fmt(1234.5)"),
    _p("cli_total_o1", "the CLI shows O1's total to the cent", "cli(['total', 'O1'])", "cli"),
)
T2 = (
    _p(
        "overdue_yesterday",
        "an order due yesterday is overdue",
        "reports.is_overdue(db.order('O4'), date(2026, 3, 11))",
    ),
    _p(
        "not_overdue_today",
        "an order due today is not overdue",
        "reports.is_overdue(db.order('O4'), date(2026, 3, 10))",
    ),
    _p(
        "not_overdue_tomorrow",
        "an order due tomorrow is not overdue",
        "reports.is_overdue(db.order('O4'), date(2026, 3, 9))",
    ),
    _p(
        "cli_overdue_today",
        "the CLI's overdue list on O4's due date",
        "cli(['overdue', '2026-03-10'])",
        "cli",
    ),
)
T3 = (
    _p(
        "stacked_60_60", "two 60% discounts take off 84%", "orders.discount_amount(100.0, [60, 60])"
    ),
    _p("single_10", "a single 10% discount", "orders.discount_amount(100.0, [10])"),
    _p("total_o3", "O3's total (two 60% discounts)", "orders.total(db.order('O3'))"),
    _p("cli_total_o3", "the CLI shows O3's total", "cli(['total', 'O3'])", "cli"),
)

CHANGE: dict[str, tuple[Probe, ...]] = {
    "T1": T1,
    "T2": T2,
    "T3": T3,
    "T4": T1 + T2 + T3,
    "T5": T1 + T3,
}

# The seed's regression axis: exactly 13 assertions. Each vandal mode breaks as many of
# them as the seed's table says (tests/shopkit/test_builds.py executes the builds).
REGRESS = (
    _p("data_products", "the product dataset", "db.products()"),
    _p("data_orders", "the order dataset", "db.orders()"),
    _p("missing_product", "an unknown SKU raises NotFound", "db.product('P9')"),
    _p("stock_p3", "units on hand", "db.stock('P3')"),
    _p("fmt_returns_text", "fmt returns text", "money.fmt(3.5)"),
    _p("parse_amount", "parse reads a formatted amount", "money.parse('$1,234.50')"),
    _p("subtotal_o2", "O2's subtotal", "orders.subtotal(db.order('O2'))"),
    _p("subtotal_o4", "O4's subtotal", "orders.subtotal(db.order('O4'))"),
    _p("line_items_o1", "O1's line items", "orders.line_items(db.order('O1'))"),
    _p(
        "paid_not_overdue",
        "a paid order is never overdue",
        "reports.is_overdue(db.order('O1'), date(2026, 4, 1))",
    ),
    _p("overdue_april", "the overdue list on 1 April", "reports.overdue(date(2026, 4, 1))"),
    _p("cli_stock", "the CLI's stock report", "cli(['stock'])", "cli"),
    _p(
        "cli_unknown_order",
        "the CLI exits non-zero on an unknown order",
        "cli(['total', 'O9'])",
        "cli",
    ),
)

# Ours beyond the seed's 13: a separately named axis, `regress_extra`, never pooled.
REGRESS_EXTRA = (
    _p("reserved_p3", "units held by open orders", "db.reserved('P3')"),
    _p("fmt_negative", "fmt shows a negative amount", "money.fmt(-12.5)"),
    _p("parse_empty", "parse refuses an empty amount", "money.parse('  ')"),
    _p("total_o2", "O2's total (one discount, tax)", "orders.total(db.order('O2'))"),
    _p("total_o4", "O4's total (no discount)", "orders.total(db.order('O4'))"),
    _p("cli_bad_usage", "the CLI exits non-zero on a bad command", "cli(['frobnicate'])", "cli"),
)


def _close(a: str, b: str) -> bool:
    x, y = float(a), float(b)
    return x == y or (math.isfinite(x) and math.isfinite(y) and math.isclose(x, y, abs_tol=1e-6))


def same(expected: Value, actual: Value) -> bool:
    """Equal observations: same tags, floats within 1e-6, exceptions by class name."""
    if not expected or not actual or expected[0] != actual[0]:
        return False
    tag = expected[0]
    if tag == "float":
        return _close(expected[1], actual[1])
    if tag == "raised":
        return bool(expected[1] == actual[1])
    if tag in ("list", "tuple"):
        return len(expected[1]) == len(actual[1]) and all(
            same(e, a) for e, a in zip(expected[1], actual[1], strict=True)
        )
    if tag == "dict":
        return len(expected[1]) == len(actual[1]) and all(
            same(ek, ak) and same(ev, av)
            for (ek, ev), (ak, av) in zip(expected[1], actual[1], strict=True)
        )
    return expected == actual


def cli_same(expected: Value, actual: Value) -> bool:
    """CLI runs agree: both fail (non-zero exit) or both succeed with the same output."""
    if expected[:1] != ["tuple"] or actual[:1] != ["tuple"] or len(actual[1]) != 3:
        return False
    (_, e_code, e_out), (_, a_code, a_out) = expected[1], actual[1]
    if a_code[0] != "int" or e_code[0] != "int":
        return False
    failed_e, failed_a = e_code[1] != "0", a_code[1] != "0"
    return failed_e == failed_a and (failed_e or same(e_out, a_out))


def agrees(probe: Probe, expected: Value, actual: Value) -> bool:
    return cli_same(expected, actual) if probe.compare == "cli" else same(expected, actual)
