import ast
import math
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import checkout_consent
from checkout_consent.core.money import (
    MoneyError,
    dollars_in_text,
    fmt,
    fmt_dollars,
    parse_dollars,
    percent_of,
    plain,
    round_div,
)

PACKAGE = Path(checkout_consent.__file__).parent


def test_round_div__half_rounds_away_from_zero():
    assert round_div(5, 10) == 1
    assert round_div(-5, 10) == -1
    assert round_div(14, 10) == 1
    assert round_div(15, 10) == 2


def test_percent_of__basis_points_rounded_by_the_one_rule():
    assert percent_of(999, 5000) == 500  # 499.5 -> 500
    assert percent_of(1000, 3000) == 300


@pytest.mark.parametrize(
    "value, cents",
    [
        (12, 1200),
        (12.5, 1250),
        ("12.34", 1234),
        ("$1000.00", 100000),
        (0.1, 10),
        (29.99, 2999),
        (" $7.5 ", 750),
        ("-3", -300),
        ("1000000000", 10**11),
    ],
)
def test_parse_dollars__reads_amounts_as_cents(value, cents):
    assert parse_dollars(value) == cents


@pytest.mark.parametrize(
    "value",
    [
        True,
        None,
        "abc",
        math.nan,
        math.inf,
        -math.inf,
        "1.234",
        12.345,
        10**12,
        [1],
        "NaN",
        "1,5",
        "$1,000.00",
        "1_0",
        "\uff11\uff10",
        "\u0661",
        "1e3",
        "1E-2",
        "Infinity",
        "sNaN",
        "9" * 400,
        "1" + "0" * 30,
        "1000000000.01",
        1e300,
        "",
        "$",
        ".5",
        "7.",
        "--1",
        "$-1",
        "0x10",
        "7.5\n0",
    ],
)
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
@given(
    st.one_of(
        st.integers(-(10**11), 10**11).map(lambda c: c / 100), st.floats(-1e9, 1e9, allow_nan=False)
    )
)
def test_parse_dollars__float_fast_path_agrees_with_the_exact_decimal_reading(value):
    expected = _decimal_reading(value)
    if expected is None:
        with pytest.raises(MoneyError):
            parse_dollars(value)
    else:
        assert parse_dollars(value) == expected


@given(st.integers(min_value=-(10**11), max_value=10**11))
def test_plain__is_the_decimal_text_parse_dollars_reads_back(cents):
    assert parse_dollars(plain(cents)) == cents
    assert plain(cents) == f"{cents / 100:.2f}"  # the hand-written form it replaces


@given(st.floats(min_value=-1e9, max_value=1e9, allow_nan=False), st.sampled_from([2, 4]))
def test_fmt_dollars__signs_groups_and_rounds_as_its_places_say(dollars, places):
    shown = fmt_dollars(dollars, places)
    if places == 2:  # to the cent: `fmt` of the cents a record's dollars round to
        assert shown == fmt(round(dollars * 100))
    else:
        assert shown == (
            f"-${-dollars:,.{places}f}" if dollars < 0 else f"${abs(dollars):,.{places}f}"
        )  # abs: -0.0 is "$0.00"


def test_fmt_dollars__agrees_with_fmt_on_whole_cents():
    for cents in (0, 5, -5, 123456, -123456, 10**11):
        assert fmt_dollars(cents / 100) == fmt(cents)


def test_dollars_in_text__reads_every_written_amount_and_round_trips_fmt():
    assert dollars_in_text("a $12 credit, $7.5 back and $ 1,020.00 total") == {1200, 750, 102000}
    assert dollars_in_text("twelve dollars, 12.50, $1,2") == {100}  # "$1,2": only "$1" reads
    for cents in (1, 99, 100, 123456, 10**9):
        assert dollars_in_text(f"you get {fmt(cents)} back") == {cents}


def hand_formatted_money(source: str) -> list[int]:
    """Lines that print money by hand: an f-string putting `$` right before a value, a
    value divided or multiplied by 100 shown to two decimals or grouped, or
    `fmt(round(x * 100))` (dollars turned back into cents to print them)."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.JoinedStr):
            for part, after in zip(node.values, node.values[1:], strict=False):
                if (
                    isinstance(part, ast.Constant)
                    and str(part.value).endswith("$")
                    and isinstance(after, ast.FormattedValue)
                ):
                    lines.append(node.lineno)
        if (
            isinstance(node, ast.FormattedValue)
            and isinstance(node.value, ast.BinOp)
            and isinstance(node.value.op, ast.Div | ast.Mult)
            and getattr(node.value.right, "value", None) == 100
            and any(c in ast.unparse(node.format_spec or ast.Constant("")) for c in (".2", ","))
        ):
            lines.append(node.lineno)
        if (
            isinstance(node, ast.Call)
            and getattr(node.func, "id", "") == "fmt"
            and any(
                isinstance(a, ast.Call)
                and getattr(a.func, "id", "") == "round"
                and a.args
                and isinstance(a.args[0], ast.BinOp)
                and getattr(a.args[0].right, "value", None) == 100
                for a in node.args
            )
        ):
            lines.append(node.lineno)
    return lines


def test_money__is_printed_by_hand_nowhere_but_core_money():
    money = PACKAGE / "core" / "money.py"
    found = {
        f"{p.relative_to(PACKAGE)}:{n}"
        for p in PACKAGE.rglob("*.py")
        if p != money
        for n in hand_formatted_money(p.read_text())
    }
    assert not found, f"money printed by hand (use core.money): {sorted(found)}"


def test_money__the_hand_formatting_scan_sees_what_it_must():
    assert hand_formatted_money('x = f"${a:,.2f}"\n') == [1]
    assert hand_formatted_money('x = f"total {c / 100:.2f}"\n') == [1]
    assert hand_formatted_money("x = fmt(round(d * 100))\n") == [1]
    assert (
        hand_formatted_money(
            'x = f"$ {command}"\ny = f"{bp / 100:g}% off"\nz = f"{bp / 100:.0f}%"\n'
        )
        == []
    )
