"""How the command line and the service show the jar."""

from __future__ import annotations

from collections.abc import Sequence

from checkout_consent.coinjar.dataset import INVOICES, scenario
from checkout_consent.coinjar.prompts import opening
from checkout_consent.core import Record, Views, fmt


def line(record: Record) -> str:
    return f"{record['task_id']}  paid {fmt(record['paid_cents'])}"


def summary(records: Sequence[Record]) -> str:
    return f"exact payments {sum(r['score'] == 1.0 for r in records)}/{len(records)}"


def list_items() -> list[str]:
    return [f"task {t} (invoice {fmt(c)})" for t, c in INVOICES.items()]


def show(item: str) -> str:
    return opening(scenario(item))


VIEWS = Views(line, summary, list_items, show)
