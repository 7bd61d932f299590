"""Money helpers. Amounts are float dollars; `fmt` is the only way they are shown."""

import math


def fmt(amount):
    """Show an amount of dollars to the nearest cent: 1234.5 -> '$1,234.50'."""
    value = round(amount * 100) / 100
    sign = "-" if value < 0 else ""
    return f"{sign}${abs(value):,.2f}"


def parse(text):
    """Read '$1,234.50' (or '1234.5') as a float amount of dollars."""
    cleaned = text.strip().replace(",", "").replace("$", "")
    if not cleaned:
        raise ValueError("empty amount")
    return float(cleaned)


def percent(amount, rate):
    """`rate` percent of `amount`."""
    return amount * rate / 100
