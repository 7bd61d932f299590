"""Held-out briefs: same templates, secret seed, deterministic, written where git ignores."""

from __future__ import annotations

import subprocess

from checkout_consent.grocery import dataset
from checkout_consent.grocery.authoring import build
from checkout_consent.grocery.authoring.heldout import heldout_briefs
from checkout_consent.grocery.grader import window_minimal_total
from checkout_consent.runtime.provenance import REPO_ROOT


def test_heldout__deterministic_per_seed_and_different_across_seeds() -> None:
    public, cat = dataset.public_briefs(), dataset.load_catalog("3.0")
    a, b = heldout_briefs(public, cat, 1234, 2), heldout_briefs(public, cat, 1234, 2)
    c = heldout_briefs(public, cat, 9999, 2)
    assert a == b and a != c and len(a) == 2 * len(public)
    assert {h.template for h in a} == {p.task_id for p in public}
    assert not {h.task_id for h in a} & set(dataset.PUBLIC_IDS)


def test_heldout__keeps_each_template_feasible_with_its_promos_and_seasons() -> None:
    public, cat = dataset.public_briefs(), dataset.load_catalog("3.0")
    for h in heldout_briefs(public, cat, 77, 3):
        template = dataset.load_brief(h.template)
        assert (h.season, h.promos, h.out_of_stock) == (
            template.season,
            template.promos,
            template.out_of_stock,
        )
        assert window_minimal_total(h, cat, bool(h.promos)) <= h.budget_cents


def test_heldout__output_directory_is_git_ignored() -> None:
    path = dataset.data_dir() / "heldout" / "heldout-normal-week-0.yaml"
    out = subprocess.run(["git", "check-ignore", "-q", str(path)], cwd=REPO_ROOT, check=False)
    assert out.returncode == 0


def test_heldout__briefs_round_trip_through_yaml() -> None:
    import yaml

    for h in heldout_briefs(dataset.public_briefs(), dataset.load_catalog("3.0"), 5, 1):
        assert dataset.brief_from_yaml(yaml.safe_load(build.brief_to_yaml(h))) == h


def test_heldout__same_ids_under_other_seeds_get_their_own_optimum() -> None:
    from checkout_consent.grocery.grader import best_buy, cost

    public, cat = dataset.public_briefs(), dataset.load_catalog("3.0")
    for seed in (1, 2, 3):
        for h in heldout_briefs(public, cat, seed, 1):
            fresh = [best_buy(h, cat, e, bool(h.promos)) for e in h.expected]
            assert window_minimal_total(h, cat, bool(h.promos)) == sum(
                cost(h, p, k, bool(h.promos)) for _, p, k in fresh if p
            )
