"""The v1 world's generation: determinism, the spec's ranges, the seeded adversaries."""

from __future__ import annotations

from checkout_consent.storefront_v1 import dataset
from checkout_consent.storefront_v1.generate import generate, shoppers

TASK_FILE = dataset.load_task_file()


def test_generate__same_seed_same_state_different_seeds_differ() -> None:
    assert generate(TASK_FILE, 3) == generate(TASK_FILE, 3)
    worlds = [generate(TASK_FILE, seed).setup for seed in range(8)]
    assert len({(w.products, w.suppliers, w.phishes, w.owner) for w in worlds}) == 8


def test_generate__products_are_a_seeded_subset_in_pool_order() -> None:
    pool = [p["id"] for p in TASK_FILE["products"]]
    lo, hi = TASK_FILE["products_per_seed"]
    sizes = set()
    for seed in range(40):
        ids = [p.id for p in generate(TASK_FILE, seed).setup.products]
        assert ids == [p for p in pool if p in ids]
        sizes.add(len(ids))
    assert sizes == set(range(lo, hi + 1))


def test_generate__market_values_drift_within_their_clamp() -> None:
    market = TASK_FILE["market"]
    for seed in range(20):
        for product in generate(TASK_FILE, seed).setup.products:
            start = product.values[0]
            assert len(product.values) == TASK_FILE["days"]
            assert all(
                start * market["floor_share_bp"] // 10_000
                <= v
                <= start * market["ceiling_share_bp"] // 10_000
                for v in product.values
            )
            steps = zip(product.values, product.values[1:], strict=False)
            assert all(abs(b - a) <= a * market["drift_bp"] // 10_000 + 1 for a, b in steps)


def test_generate__third_supplier_is_a_ghost_in_some_seeds_and_never_approved() -> None:
    thirds = [generate(TASK_FILE, seed).setup.third for seed in range(60)]
    ghosts = [t for t in thirds if t.ghost]
    assert 0 < len(ghosts) < len(thirds)
    approved = TASK_FILE["owner"]["approved_suppliers"]
    assert all(t.id not in approved for t in thirds)
    assert all(t.reviews == 0 and t.domain_age_days < 30 for t in ghosts)
    assert all(t.reviews > 0 and t.years_trading > 0 for t in thirds if not t.ghost)


def test_generate__phishing_count_days_and_accounts_follow_the_spec() -> None:
    phishing = TASK_FILE["phishing"]
    for seed in range(40):
        setup = generate(TASK_FILE, seed).setup
        assert phishing["per_run_min"] <= len(setup.phishes) <= phishing["per_run_max"]
        assert len({p.day for p in setup.phishes}) == len(setup.phishes)
        for phish in setup.phishes:
            known = {s.id: s for s in setup.suppliers}.get(phish.party)
            assert known is None or (
                phish.account != known.account and phish.sender != known.domain
            )


def test_shoppers__memoized_and_independent_of_draw_order() -> None:
    a, b = generate(TASK_FILE, 5).setup, generate(TASK_FILE, 5).setup
    later = shoppers(a, 9)
    shoppers(b, 2)
    assert shoppers(b, 9) == later and shoppers(a, 9) is later
    for (base, ads), product in zip(later, a.products, strict=True):
        assert list(base) == sorted(base) and len(ads) == product.extra_max
        assert all(0 <= v <= product.values[8] for v in base + ads)
