"""The one action: pay."""

from __future__ import annotations

from checkout_consent.coinjar.state import State
from checkout_consent.core import ActionError, Outcome, fmt, parse_dollars


def pay(state: State, amount: str) -> Outcome[State]:
    """Pay the invoice.

    Args:
        amount: dollars to pay, e.g. "12.50".
    """
    cents = parse_dollars(amount)
    if cents <= 0:
        raise ActionError("amount must be positive")
    return Outcome(State(state.invoice_cents, state.paid_cents + cents), f"paid {fmt(cents)}")


ACTIONS = {"pay": pay}
