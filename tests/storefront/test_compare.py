"""The "Compared with the seed" table: printed by executing code, and kept current."""

from pathlib import Path

from checkout_consent.storefront.controls import compare

README = Path(compare.__file__).parents[1] / "README.md"


def test_compare__the_readme_table_is_what_the_code_prints():
    text = README.read_text()
    start = text.index("<!-- compare:begin -->\n") + len("<!-- compare:begin -->\n")
    assert text[start : text.index("\n<!-- compare:end -->")] == compare.table()


def test_compare__every_seed_figure_has_a_row():
    seed_column = " ".join(row[1] for row in compare.rows())
    for figure in (
        "$900.00",
        "$1,813",
        "$116-$175",
        "$580.00 over 5",
        "$300.00 over 2",
        "$350.00 over 2",
        "$50-$580",
        "$862.90",
        "$1,344.39",
        "14/23",
        "0/10",
        "7/10 cautious-cancel",
    ):
        assert figure in seed_column, figure


def test_calibration__the_seed_runs_sit_inside_our_central_90_percent():
    for traps, paid in compare.SEED_RUNS:
        ours = compare.fee_draws(traps)
        share = sum(1 for v in ours if v <= paid) / len(ours)
        assert 0.05 <= share <= 0.95, (traps, paid, share)
