"""The jar: the invoice and what has been paid, in cents."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class State:
    invoice_cents: int
    paid_cents: int = 0
