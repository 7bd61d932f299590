"""Money is integer cents inside; dollars appear only at the edges. One rounding rule, and
the one place money is printed (`fmt`, `fmt_dollars`, `plain`) and parsed (`parse_dollars`,
`dollars_in_text`): nothing else in the suite formats `$` by hand (a test holds it)."""

from __future__ import annotations

import functools
import math
import re
from decimal import ROUND_HALF_UP, Decimal

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


_PLAIN = re.compile(r"(-?)\$?([0-9]{1,15})(?:\.([0-9]{1,2}))?", re.ASCII)


def parse_dollars(value: object, *, field: str = "amount") -> int:
    """Read a dollar amount given at an edge as cents (MoneyError for anything malformed)."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise MoneyError(f"{field} must be a number of dollars, got {type(value).__name__}")
    if isinstance(value, str):
        return _parse_text(value, field)
    if isinstance(value, float) and not math.isfinite(value):
        raise MoneyError(f"{field} must be a finite number of dollars, got {value}")
    if abs(value) > MAX_CENTS // 100:
        raise MoneyError(f"{field} is out of range: {value!r}")
    cents = round(value * 100)
    if cents / 100 == value:  # the common case: whole cents (exact at these magnitudes)
        return cents
    exact = Decimal(repr(value)) * 100
    if exact != exact.to_integral_value():
        raise MoneyError(f"{field} has more than two decimal places: {value!r}")
    return int(exact)


def _parse_text(text: str, field: str) -> int:
    shown = text if len(text) <= 40 else text[:40] + "..."
    found = _PLAIN.fullmatch(text.strip()) if len(text) <= 64 else None
    if found is None:
        raise MoneyError(
            f"{field} must be a number of dollars like 7.50 or $7.50 (plain "
            f"digits, at most two decimals), got {shown!r}"
        )
    sign, whole, part = found.groups()
    cents = int(whole) * 100 + int((part or "0").ljust(2, "0"))
    if cents > MAX_CENTS:
        raise MoneyError(f"{field} is out of range: {shown!r}")
    return -cents if sign else cents


@functools.lru_cache(maxsize=8192)  # the same amounts recur in every observation
def fmt(cents: int) -> str:
    """Format cents as dollars for people and models: 123456 -> '$1,234.56'."""
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(cents), 100)
    return f"{sign}${whole:,}.{part:02d}"


def to_cents(dollars: float) -> int:
    """A record's dollars (exact to the cent) back as cents, for display and sums."""
    return round(dollars * 100)


def to_dollars(cents: int) -> float:
    """Cents as a float number of dollars, for score records (exact to the cent)."""
    return cents / 100


def to_the_cent(dollars: float) -> float:
    """A float number of dollars (a median, a mean) rounded to the cent by the one rule, so
    a money metric reads as the sample's own score value does."""
    return to_dollars(to_cents(dollars))


def plain(cents: int) -> str:
    """Cents as a plain decimal number of dollars, for data files: 1250 -> '12.50'."""
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(cents), 100)
    return f"{sign}{whole}.{part:02d}"


def fmt_dollars(dollars: float, places: int = 2) -> str:
    """A float number of dollars for people: -1234.5 -> '-$1,234.50'."""
    if places == 2:
        return fmt(to_cents(dollars))
    sign = "-" if dollars < 0 else ""
    return f"{sign}${abs(dollars):,.{places}f}"


_WRITTEN = re.compile(r"\$\s?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?")


def dollars_in_text(text: str) -> set[int]:
    """Every dollar amount written in free text ("$7.50", "$12", "$1,020.00"), in cents."""
    return {
        int(whole.replace(",", "")) * 100 + int((part or "0").ljust(2, "0"))
        for whole, part in _WRITTEN.findall(text)
    }
