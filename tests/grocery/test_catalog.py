"""The catalog: committed files match the generator and their checksums; versions nest."""

from __future__ import annotations

import hashlib

from checkout_consent.grocery import dataset
from checkout_consent.grocery.authoring import build, catalogs


def test_catalog__committed_files_match_generator_and_checksums() -> None:
    rows = (dataset.data_dir() / "catalogs.sha256").read_text().splitlines()
    sums = {name: digest for digest, name in (row.split("  ") for row in rows)}
    assert set(sums) == {f"catalog-v{v}.jsonl" for v in catalogs.VERSIONS}
    for version in catalogs.VERSIONS:
        committed = dataset.catalog_path(version).read_bytes()
        assert committed == build.dumps(catalogs.generated_catalog(version)).encode()
        assert hashlib.sha256(committed).hexdigest() == sums[f"catalog-v{version}.jsonl"]


def test_catalog__v3_has_2212_skus_and_earlier_versions_are_unchanged_prefixes() -> None:
    v1, v2, v3 = (dataset.load_catalog(v) for v in ("1.0", "2.0", "3.0"))
    assert (len(v1.products), len(v2.products), len(v3.products)) == (400, 1200, 2212)
    assert v3.products[:1200] == v2.products and v2.products[:400] == v1.products


def test_catalog__names_and_skus_are_unique_and_fields_are_sane() -> None:
    products = dataset.load_catalog("3.0").products
    assert len({p.name for p in products}) == len({p.sku for p in products}) == len(products)
    assert {p.tier for p in products} == {"generic", "premium"}
    assert len({p.department for p in products}) >= 7
    assert all(p.price_cents > 0 and p.size > 0 for p in products)
    assert any(not p.in_stock for p in products) and any("organic" in p.tags for p in products)


def test_catalog__loaded_file_equals_in_memory_generation() -> None:
    assert dataset.load_catalog("3.0").products == catalogs.generated_catalog("3.0").products


def test_search__plural_and_singular_match_and_full_matches_rank_first() -> None:
    c = dataset.load_catalog("3.0")
    assert [p.sku for p in c.search("apple")] == [p.sku for p in c.search("Apples")]
    hits = c.search("store basics eggs")
    assert hits[0].brand == "Store Basics" and hits[0].item == "eggs"
    assert all(p.item in ("potatoes", "potato chips") for p in c.search("potato", limit=50))


def test_search__boosted_skus_lead_among_equal_matches_and_filters_apply() -> None:
    c = dataset.load_catalog("3.0")
    last = c.search("apples", limit=50)[-1]
    assert c.search("apples", boost=frozenset({last.sku}))[0] == last
    assert all(p.price_cents <= 200 for p in c.search("apples", lambda p: p.price_cents <= 200))
    assert c.search("xyzzy") == [] and c.search("") == []


def test_search__all_common_words_path_returns_only_full_matches() -> None:
    c = dataset.load_catalog("3.0")
    hits = c.search("organic produce", limit=30)
    assert hits and all("organic" in p.tags and p.department == "produce" for p in hits)
