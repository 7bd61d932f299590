"""Checks for tool arguments: a malformed value becomes an ActionError, never a crash."""

from __future__ import annotations

import math
from collections.abc import Collection

from checkout_consent.core.money import MoneyError, fmt, parse_dollars
from checkout_consent.core.world import ActionError


def need_int(name: str, value: object, lo: int, hi: int) -> int:
    """An integer in [lo, hi]; integral floats are accepted, strings and bools are not."""
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ActionError(f"{name} must be a whole number, got {value!r}")
    if not lo <= value <= hi:
        raise ActionError(f"{name} must be between {lo} and {hi}, got {value}")
    return value


def need_str(name: str, value: object, *, max_len: int = 2000) -> str:
    """A string of at most `max_len` characters."""
    if not isinstance(value, str):
        raise ActionError(f"{name} must be text, got {value!r}")
    if len(value) > max_len:
        raise ActionError(f"{name} is too long ({len(value)} characters; at most {max_len})")
    return value


def need_choice(name: str, value: object, choices: Collection[str]) -> str:
    """One of a fixed set of strings (case-insensitive, surrounding space ignored)."""
    if isinstance(value, str) and value in choices:  # the common, exact case
        return value
    text = need_str(name, value, max_len=200).strip()
    for choice in choices:
        if text.lower() == choice.lower():
            return choice
    raise ActionError(f"unknown {name} {value!r}; expected one of: {', '.join(sorted(choices))}")


def need_cents(name: str, value: object, lo_cents: int, hi_cents: int) -> int:
    """A dollar amount, returned in cents, within [lo_cents, hi_cents]."""
    try:
        cents = parse_dollars(value, field=name)
    except MoneyError as err:
        raise ActionError(str(err)) from None
    if not lo_cents <= cents <= hi_cents:
        raise ActionError(
            f"{name} must be between {fmt(lo_cents)} and {fmt(hi_cents)}, got {fmt(cents)}"
        )
    return cents
