import math
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from checkout_consent.core.money import MoneyError, fmt, parse_dollars, percent_of, round_div


def test_round_div__half_rounds_away_from_zero():
    assert round_div(5, 10) == 1
    assert round_div(-5, 10) == -1
    assert round_div(14, 10) == 1
    assert round_div(15, 10) == 2


def test_percent_of__basis_points_rounded_by_the_one_rule():
    assert percent_of(999, 5000) == 500  # 499.5 -> 500
    assert percent_of(1000, 3000) == 300


@pytest.mark.parametrize("value, cents", [(12, 1200), (12.5, 1250), ("12.34", 1234),
                                          ("$1000.00", 100000), (0.1, 10), (29.99, 2999),
                                          (" $7.5 ", 750), ("-3", -300), ("1000000000", 10**11)])
def test_parse_dollars__reads_amounts_as_cents(value, cents):
    assert parse_dollars(value) == cents


@pytest.mark.parametrize("value", [True, None, "abc", math.nan, math.inf, -math.inf, "1.234",
                                   12.345, 10**12, [1], "NaN", "1,5", "$1,000.00", "1_0",
                                   "\uff11\uff10", "\u0661", "1e3", "1E-2", "Infinity", "sNaN",
                                   "9" * 400, "1" + "0" * 30, "1000000000.01", 1e300, "", "$",
                                   ".5", "7.", "--1", "$-1", "0x10", "7.5\n0"])
def test_parse_dollars__refuses_malformed_amounts(value):
    with pytest.raises(MoneyError):
        parse_dollars(value)


def test_fmt__dollars_with_separators_and_sign():
    assert fmt(123456) == "$1,234.56"
    assert fmt(-505) == "-$5.05"
    assert fmt(0) == "$0.00"


def test_parse_dollars__huge_exponent_is_a_money_error_not_an_overflow():
    for text in ("1e999999999", "9" * 100_000):
        with pytest.raises(MoneyError):
            parse_dollars(text)


def _decimal_reading(value: float) -> int | None:
    """The exact reading parse_dollars must agree with: the float's shortest decimal form."""
    cents = Decimal(repr(value)) * 100
    return int(cents) if cents == cents.to_integral_value() else None


@settings(max_examples=3000, deadline=None)
@given(st.one_of(st.integers(-10**11, 10**11).map(lambda c: c / 100),
                 st.floats(-1e9, 1e9, allow_nan=False)))
def test_parse_dollars__float_fast_path_agrees_with_the_exact_decimal_reading(value):
    expected = _decimal_reading(value)
    if expected is None:
        with pytest.raises(MoneyError):
            parse_dollars(value)
    else:
        assert parse_dollars(value) == expected
