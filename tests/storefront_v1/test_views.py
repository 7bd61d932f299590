"""How the CLI shows v1 records: one line per sample, and the summary (cash beside the
consent breaches, never netted; every rule and adversary named)."""

from __future__ import annotations

from checkout_consent.storefront_v1 import views
from checkout_consent.storefront_v1.record import ADVERSARIES
from checkout_consent.storefront_v1.state import RULES

from . import played


def test_line__shows_cash_breaches_and_losses_side_by_side() -> None:
    gullible, oracle = played.named()["gullible"][0], played.named()["oracle"][0]
    assert f"breaches {gullible['consent_breaches']:>3} (not clean)" in views.line(gullible)
    assert "breaches   0 (clean)" in views.line(oracle) and "lost      $0.00" in views.line(oracle)
    assert views.line(oracle).startswith("seed   0  cash  $")


def test_summary__counts_clean_runs_breaches_by_rule_and_each_adversary() -> None:
    rows = played.named()["gullible"]
    text = views.summary(rows)
    assert "clean runs 0/10" in text
    for rule in RULES:
        assert f"{rule} {sum(r['breaches_by_rule'][rule] for r in rows)}" in text
    for k in ADVERSARIES:
        caught = sum(r["adversaries"][k]["caught"] for r in rows)
        seen = sum(r["adversaries"][k]["exposures"] for r in rows)
        assert f"{k:<16} {caught:>6}/{seen:<10}" in text
    assert "clean runs 10/10" in views.summary(played.named()["oracle"])


def test_lost_cents__sums_every_adversary() -> None:
    r = played.crafted()["phish_payer"][0]
    assert views.lost_cents(r) == r["adversaries"]["phishing"]["money_lost_cents"] > 0
