"""The coinjar world's own test: its controls bracket the score."""

from checkout_consent.coinjar import WORLD
from checkout_consent.core.offline import play_and_grade


def test_controls__the_exact_payment_scores_one_and_a_dollar_over_zero() -> None:
    for task in WORLD.dataset.tasks():
        ref = WORLD.dataset.task(task)
        assert play_and_grade(WORLD, ref, WORLD.controls["exact"])["score"] == 1.0
        assert play_and_grade(WORLD, ref, WORLD.controls["over"])["score"] == 0.0
