"""A task's initial state."""

from __future__ import annotations

from checkout_consent.coinjar.state import State


def generate(invoice_cents: int) -> State:
    return State(invoice_cents)
