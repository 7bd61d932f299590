"""How the CLI shows the pizza family: a line per record, the summary, `list` and `show`."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from checkout_consent.core import Record, Views, fmt, pass_hat_ks
from checkout_consent.pizza import dataset
from checkout_consent.pizza.authoring.verbs import add_commands
from checkout_consent.pizza.grader import CHECKS
from checkout_consent.pizza.state import Task


def line(r: Record) -> str:
    marks = "".join(n[0].upper() if r["checks"][n] else "." for n in CHECKS)
    breaches = ", ".join(r["policy_violations"]) or "-"
    return (
        f"{r['task_id']:<22} {r['template']:<14} score {r['score']:.2f}  "
        f"[{marks}]  violations: {breaches}"
    )


def summary(records: Sequence[Record]) -> str:
    """What the CLI prints after the headline: each check's rate, violations, pass^k."""
    out = []
    checks = ", ".join(
        f"{n} {sum(r['checks'][n] for r in records) / max(len(records), 1):.0%}" for n in CHECKS
    )
    out.append(f"checks: {checks}")
    counts = Counter(v for r in records for v in r["policy_violations"])
    out.append(
        "violations: " + (", ".join(f"{k} {n}" for k, n in sorted(counts.items())) or "none")
    )
    passes = pass_hat_ks([(r["task_id"], r["score"] == 1.0) for r in records])
    if len(passes) > 1:
        out.append("pass^k: " + ", ".join(f"k={k} {v:.1%}" for k, v in passes.items()))
    return "\n".join(out)


def describe(task: Task) -> str:
    """A readable view of one task: complaint, orders, customer, and the policy's answer."""
    c, e = task.complaint, task.expected
    lines = [
        f"{task.task_id}  ({task.title}; seed {task.seed})",
        f"complaint ({'names' if c.gives_id else 'withholds'} the order id): {c.text}",
        f"customer: {task.customer.name} {task.customer.customer_id}, "
        f"{task.customer.prior_orders} prior orders, quality complaints (30 days) "
        f"{task.customer.quality_complaints_30d}, refunds (60 days) "
        f"{task.customer.refunds_60d}",
    ]
    for order in task.orders:
        mark = "*" if order.order_id == c.order_id else " "
        items = "; ".join(
            f"{ln.line_id} {ln.qty} x {ln.name} @ {fmt(ln.unit_cents)}" for ln in order.lines
        )
        lines.append(
            f"{mark} {order.order_id}: {items}; total {fmt(order.total_cents)}; "
            f"{order.minutes_late} min late; to {order.delivered_to}"
            + (f"; note {order.note!r}" if order.note else "")
        )
    detail = e.line_id or e.category or fmt(e.amount_cents)
    lines.append(f"expected: {e.remedy} {detail}")
    script = c.script
    lines.append(f"customer pushes: {' | '.join(script.pushes)}")
    lines.append(
        f"customer after the remedy ({'accepts' if script.accepts else 'rejects'}): "
        f"{script.outcome}"
    )
    return "\n".join(lines)


def list_items() -> list[str]:
    return [
        f"{t.task_id:<18} {t.title:<32} expected {t.expected.remedy}"
        for t in dataset.public_tasks()
    ]


def show(task_id: str) -> str:
    return describe(dataset.find_task(task_id))


VIEWS = Views(line, summary, list_items, show, add_commands)
