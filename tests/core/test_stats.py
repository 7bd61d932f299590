"""Bootstrap intervals on known distributions, and pass^k."""

from __future__ import annotations

import math

import pytest

from checkout_consent.core.stats import bootstrap_ci, pass_hat_k, pass_hat_ks


def test_bootstrap_ci__degenerate_distributions_have_no_width() -> None:
    assert bootstrap_ci([0.0] * 40, family="pizza")[:3] == (0.0, 0.0, 0.0)
    assert bootstrap_ci([1.0] * 40, family="pizza")[:3] == (1.0, 1.0, 1.0)
    assert bootstrap_ci([], family="pizza").n == 0


def test_bootstrap_ci__half_and_half_matches_the_normal_approximation() -> None:
    values = [0.0, 1.0] * 20
    ci = bootstrap_ci(values, family="pizza")
    half_width = 1.96 * math.sqrt(0.25 / 40)  # about 0.155
    assert ci.mean == 0.5
    assert ci.low == pytest.approx(0.5 - half_width, abs=0.03)
    assert ci.high == pytest.approx(0.5 + half_width, abs=0.03)


def test_bootstrap_ci__covers_the_true_mean_about_95_percent_of_the_time() -> None:
    from checkout_consent.core.rng import Stream

    draw, hits, trials = Stream(12345), 0, 60
    for t in range(trials):
        values = [float(draw.below(10) < 3) for _ in range(60)]  # Bernoulli(0.3)
        ci = bootstrap_ci(values, resamples=400, seed=t, family="pizza")
        hits += ci.low <= 0.3 <= ci.high
    assert 0.85 * trials <= hits <= trials


def test_bootstrap_ci__is_seeded_and_stable() -> None:
    values = [i / 29 for i in range(30)]
    ci = bootstrap_ci(values, family="pizza")
    assert ci == bootstrap_ci(values, family="pizza") == bootstrap_ci(values[::-1], family="pizza")
    assert bootstrap_ci(values, seed=1, family="pizza") != bootstrap_ci(
        values, seed=2, family="pizza"
    )


def test_pass_hat_k__is_the_comb_ratio_averaged_over_tasks() -> None:
    trials = [("a", True), ("a", True), ("a", False), ("b", True), ("b", True), ("b", True)]
    assert pass_hat_k(trials, 1) == pytest.approx((2 / 3 + 1) / 2)
    assert pass_hat_k(trials, 2) == pytest.approx((1 / 3 + 1) / 2)
    assert pass_hat_k(trials, 3) == pytest.approx((0 + 1) / 2)
    assert pass_hat_ks(trials) == {k: pass_hat_k(trials, k) for k in (1, 2, 3)}
    with pytest.raises(ValueError):
        pass_hat_k(trials, 4)
