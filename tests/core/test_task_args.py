import pytest

from checkout_consent.core.task_args import parse_seeds


@pytest.mark.parametrize(
    "text, seeds",
    [("0-3", [0, 1, 2, 3]), ("1,4,7", [1, 4, 7]), (3, [3]), ("0-1,5", [0, 1, 5]), ([2, 3], [2, 3])],
)
def test_parse_seeds__ranges_and_lists(text, seeds):
    assert parse_seeds(text) == seeds


@pytest.mark.parametrize(
    "text",
    [
        "",
        "3-1",
        "a",
        "1,1",
        "-5",
        "-3-2",
        "1--2",
        "0-9x",
        "1.5",
        "\u0661",
        "0-99999999999",
        "0-1000000",
        "1e3",
        " , ",
        True,
        [-1],
        None,
        "0-" + "9" * 5000,
    ],
)
def test_parse_seeds__refuses_bad_lists(text):
    with pytest.raises(ValueError):
        parse_seeds(text)


def test_parse_seeds__a_huge_range_is_refused_by_count():
    with pytest.raises(ValueError, match="more than"):
        parse_seeds("0-999999999")  # counted, never built (building it would exhaust memory)
