"""The controls' records on seeds 0-9, played offline once per test session (the sanity,
controls and README-table tests share them)."""

from __future__ import annotations

import functools

from checkout_consent.core.contract import ControlRecords
from checkout_consent.storefront_v1.controls import table
from checkout_consent.storefront_v1.controls.sanity import crafted_records


@functools.cache
def named() -> ControlRecords:
    return table.named_records()


@functools.cache
def crafted() -> ControlRecords:
    return crafted_records(table.SEEDS)


def copy(records: ControlRecords) -> ControlRecords:
    """A deep enough copy to break one record without touching the shared ones."""
    return {name: [dict(r) for r in rows] for name, rows in records.items()}
