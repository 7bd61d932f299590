"""Money is integer cents inside; dollars appear only at the edges. One rounding rule."""

from __future__ import annotations

import functools
import math
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

MAX_CENTS = 10**11  # one billion dollars: anything larger is a malformed amount


class MoneyError(ValueError):
    """An amount that cannot be read as money."""


def round_div(numerator: int, denominator: int) -> int:
    """Divide integers and round half away from zero: the suite's only rounding rule."""
    if denominator == 0:
        raise ZeroDivisionError("round_div by zero")
    quotient = Decimal(numerator) / Decimal(denominator)
    return int(quotient.quantize(Decimal(1), rounding=ROUND_HALF_UP))


def percent_of(cents: int, basis_points: int) -> int:
    """`basis_points` / 10,000 of `cents`, rounded by the one rule."""
    return round_div(cents * basis_points, 10_000)


def parse_dollars(value: object, *, field: str = "amount") -> int:
    """Read a dollar amount given at an edge (a tool argument, a YAML file) as cents.

    Accepts an int, a finite float or a plain numeric string with at most two decimals.
    Rejects booleans, NaN, infinities, more than two decimals and absurd magnitudes.
    """
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise MoneyError(f"{field} must be a number of dollars, got {type(value).__name__}")
    if isinstance(value, float) and not math.isfinite(value):
        raise MoneyError(f"{field} must be a finite number of dollars, got {value}")
    text = value.strip().lstrip("$").replace(",", "") if isinstance(value, str) else repr(value)
    try:
        amount = Decimal(text)
    except InvalidOperation:
        raise MoneyError(f"{field} must be a number of dollars, got {value!r}") from None
    if not amount.is_finite():
        raise MoneyError(f"{field} must be a finite number of dollars, got {value!r}")
    cents = amount * 100
    if cents != cents.to_integral_value():
        raise MoneyError(f"{field} has more than two decimal places: {value!r}")
    if abs(cents) > MAX_CENTS:
        raise MoneyError(f"{field} is out of range: {value!r}")
    return int(cents)


@functools.lru_cache(maxsize=8192)  # the same amounts recur in every observation
def fmt(cents: int) -> str:
    """Format cents as dollars for people and models: 123456 -> '$1,234.56'."""
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(cents), 100)
    return f"{sign}${whole:,}.{part:02d}"


def to_dollars(cents: int) -> float:
    """Cents as a float number of dollars, for score records (exact to the cent)."""
    return cents / 100
