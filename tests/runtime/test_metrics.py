"""The headline metrics: each as a pure function of sample scores, and through Inspect, one
eval per family, read back from the log header the viewer shows."""

from __future__ import annotations

import statistics
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.scorer import SampleScore, Score

from checkout_consent.core.money import to_the_cent
from checkout_consent.core.offline import play_and_grade
from checkout_consent.core.stats import bootstrap_ci, pass_hat_ks
from checkout_consent.core.summary import summary
from checkout_consent.families import world_named
from checkout_consent.runtime.metrics import (
    headline_metric,
    median_of,
    pass_hat,
    pooled_rate,
    share_below,
    value_means,
)


def _scores(*values: dict[str, float], ids: list[str] | None = None) -> list[SampleScore]:
    names = ids or [str(i) for i in range(len(values))]
    return [
        SampleScore(score=Score(value=v), sample_id=n)  # type: ignore[arg-type]
        for v, n in zip(values, names, strict=True)
    ]


def test_median_of__skips_samples_without_the_key() -> None:
    got = median_of("cash")(
        _scores({"cash": 3.0}, {"cash": -1.0}, {"integrity": 0.0}, {"cash": 10.0})
    )
    assert got == {"cash_median": 3.0}


def test_pooled_rate__pools_counts_and_reports_n_and_none_when_empty() -> None:
    rate = pooled_rate("hit", "all", "catch")
    assert rate(_scores({"hit": 1.0, "all": 1.0}, {"hit": 0.0, "all": 3.0})) == {
        "catch": 25.0,
        "catch_n": 4.0,
    }
    assert rate(_scores({"hit": 0.0, "all": 0.0})) == {"catch": None, "catch_n": 0.0}


def test_share_below__counts_strictly_below_the_bound() -> None:
    got = share_below("cash", 0.0, "bankrupt_%")(_scores({"cash": -0.01}, {"cash": 0.0}))
    assert got == {"bankrupt_%": 50.0}


def test_headline_metric__is_core_headline_figure_in_the_unit_its_name_says() -> None:
    values = [1.0, 0.0, 0.5, 1.0, 0.25]
    ci = bootstrap_ci(values, family="pizza")
    got = headline_metric("score", "mean", "%", "pizza")(_scores(*({"score": v} for v in values)))
    pct = [round(100 * x, 1) for x in (ci.mean, ci.low, ci.high)]
    assert got == dict(zip(("mean_%", "ci_lo_%", "ci_hi_%"), pct, strict=True)) | {"n_tasks": ci.n}
    assert all(len(name) <= 9 for name in got)  # inspect view shows each name whole


def test_headline_metric__dollars_are_to_the_cent_as_the_samples_value_and_named_so() -> None:
    cash = [17804.44, 15327.55, 20624.68]
    got = headline_metric("cash", "median", "$", "storefront")(
        _scores(*({"cash": v} for v in cash))
    )
    assert set(got) == {"median_$", "ci_lo_$", "ci_hi_$", "n_tasks"}
    # the median sample's own score value, as `inspect view` prints both: 17804.44
    assert got["median_$"] == 17804.44 and got["n_tasks"] == 3
    assert all(v == round(v, 2) for v in got.values())  # no fraction of a cent
    # at most 8 characters as Inspect's viewer prints a number ("17804.44")
    assert all(len(str(v)) <= 8 for v in got.values())


def test_value_means__one_entry_per_key_under_the_scorer() -> None:
    got = value_means()(_scores({"a": 1.0, "b": 0.0}, {"a": 0.0}, {"integrity": 0.0}))
    assert got == {"a_mean": 0.5, "b_mean": 0.0, "integrity_mean": 0.0}


def test_value_means__a_money_keys_mean_is_to_the_cent() -> None:
    scores = _scores({"cash": 10.01, "share": 0.1}, {"cash": 10.02, "share": 0.2}, {"cash": 10.02})
    got = value_means(("cash",))(scores)
    assert got["cash_mean"] == 10.02  # 10.016666... as the board prints it
    assert got["share_mean"] == pytest.approx(0.15)  # not money: as it is


def test_pass_hat__is_core_stats_pass_hat_k_over_epochs() -> None:
    values = [1.0, 1.0, 1.0, 0.0]
    scores = _scores(*({"score": v} for v in values), ids=["a", "a", "b", "b"])
    expected = pass_hat_ks([("a", True), ("a", True), ("b", True), ("b", False)])
    assert pass_hat("score")(scores) == {f"pass^{k}": v for k, v in expected.items()}
    assert expected[2] == 0.5


def _headline(
    name: str, model: str, tmp: Path, epochs: int = 1, **args: Any
) -> tuple[dict[str, float], list[dict[str, Any]]]:
    from inspect_ai import eval as inspect_eval

    log = inspect_eval(
        f"checkout_consent/{name}",
        model=model,
        task_args=args,
        epochs=epochs,
        log_dir=str(tmp),
        display="none",
        score_display=False,
    )[0]
    assert log.status == "success", log.error
    metrics = {
        k: m.value
        for s in log.results.scores
        for k, m in s.metrics.items()
        if s.name == f"{name}_scorer"
    }
    # one scorer, one panel (pizza's pass^k over unreduced epochs is a second entry of it)
    assert {s.name for s in log.results.scores} == {f"{name}_scorer"}
    records = [next(iter(s.scores.values())).metadata["record"] for s in log.samples]
    return metrics, records


@pytest.mark.inspect
def test_headline__storefront_log_shows_what_run_prints(tmp_path: Path) -> None:
    metrics, records = _headline("storefront", "control/storefront-gullible", tmp_path, seeds="0-2")
    printed = summary(world_named("storefront"), records).splitlines()[0]
    caught = sum(r["traps_caught"] for r in records)
    total = sum(r["traps_total"] for r in records)
    broke = sum(r["cash_final"] < 0 for r in records)
    assert f"trap catch rate {caught}/{total}" in printed
    assert f"bankruptcy rate {broke}/3" in printed
    assert (metrics["catch_%"], metrics["traps_met"]) == (round(100 * caught / total, 1), total)
    assert metrics["bankrupt_%"] == round(100 * broke / 3, 1)
    median = float(statistics.median(r["cash_final"] for r in records))
    assert metrics["median_$"] == to_the_cent(median)
    assert f"median cash_final {_dollars(median)}" in printed
    equity = float(statistics.median(r["equity_final"] for r in records))
    assert metrics["eq_med_$"] == to_the_cent(equity)
    short = [n for n in metrics if not n.endswith("_mean")]
    assert all(len(name) <= 11 for name in short), metrics


def _dollars(value: float) -> str:
    return f"-${-value:,.2f}" if value < 0 else f"${value:,.2f}"


@pytest.mark.inspect
def test_headline__pizza_log_shows_mean_ci_and_pass_k(tmp_path: Path) -> None:
    metrics, records = _headline(
        "pizza", "control/pizza-mock", tmp_path, epochs=2, tasks="allergen,late_delivery"
    )
    printed = summary(world_named("pizza"), records)
    assert printed.startswith(
        f"mean score {metrics['mean_%']:.1f}% (bootstrap 95% CI over tasks "
        f"{metrics['ci_lo_%']:.1f}% to {metrics['ci_hi_%']:.1f}%, n=10 tasks, "
        f"20 samples)"
    )
    assert f"pass^k: k=1 {metrics['pass^1']:.1%}, k=2 {metrics['pass^2']:.1%}" in printed
    assert (metrics["mean_%"], metrics["pass^2"]) == (50.0, 0.5)
    assert "violation" not in metrics


@pytest.mark.inspect
def test_headline__shopkit_log_shows_each_axis_mean_over_the_public_set(tmp_path: Path) -> None:
    metrics, records = _headline("shopkit", "control/shopkit-noop", tmp_path)
    world = world_named("shopkit")
    assert sorted(r["task"] for r in records) == ["T1", "T2", "T3", "T4", "T5"]
    offline = [
        play_and_grade(world, world.dataset.task(t), world.controls["noop"])
        for t in ("T1", "T2", "T3", "T4", "T5")
    ]
    assert metrics["mean"] == round(sum(r["change"] for r in offline) / 5, 4)
    for axis in ("change", "regress", "regress_extra"):
        assert metrics[f"{axis}_mean"] == pytest.approx(sum(r[axis] for r in offline) / 5), axis
