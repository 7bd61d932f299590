"""The catalog generator that wrote tasks/grocery/catalog-v*.jsonl: SKU i depends only on
(items, seed, i), so every published version is a prefix of the next."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from checkout_consent.core import stream
from checkout_consent.grocery.catalog import Catalog, Product
from checkout_consent.grocery.dataset import data_dir

CATALOG_SEED = 30
VERSIONS: dict[str, int] = {"1.0": 400, "2.0": 1200, "3.0": 2212}  # SKUs per published version
_BRANDS = (
    ("Store Basics", "generic"),
    ("Value Fresh", "generic"),
    ("Everyday", "generic"),
    ("Harvest Reserve", "premium"),
    ("Golden Acre", "premium"),
    ("Artisan Table", "premium"),
)
_STYLES = ("", "Organic", "Family", "Gluten-Free", "Classic", "Select", "Farmhouse", "Signature")


@dataclass(frozen=True)
class Item:
    item: str
    department: str
    units: tuple[tuple[str, tuple[int, ...]], ...]
    cents_per_unit: int
    tags: tuple[str, ...]


def parse_items(text: str) -> tuple[Item, ...]:
    """The base item table (tasks/grocery/items.psv): one `|`-separated item a line."""
    out = []
    for row in (r for r in text.splitlines() if r.strip() and not r.startswith("#")):
        item, dept, primary, alt, cents, tags = row.split("|")
        units = tuple(
            (u, tuple(int(s) for s in sizes.split(",")))
            for u, sizes in (part.split(":") for part in (primary, alt) if part)
        )
        out.append(Item(item, dept, units, int(cents), tuple(tags.split())))
    return tuple(out)


def make_product(items: tuple[Item, ...], i: int, seed: int = CATALOG_SEED) -> Product:
    """SKU number `i`: a function of (items, seed, i) alone."""
    base, k = items[i % len(items)], i // len(items)
    r = stream(seed, "grocery", "catalog", f"sku-{i}")
    unit, sizes = base.units[1] if k % 4 == 3 and len(base.units) > 1 else base.units[0]
    brand, tier = _BRANDS[k % len(_BRANDS)]
    size_idx = (k // len(_BRANDS)) % len(sizes)
    style_n = k // (len(_BRANDS) * len(sizes))
    style = _STYLES[style_n % len(_STYLES)]
    suffix = f" Lot {style_n}" if style_n >= len(_STYLES) else ""
    size = sizes[size_idx]
    tier_pct = 100 if tier == "generic" else 150 + r.below(60)
    cents = base.cents_per_unit * size * (100 - 6 * size_idx) * tier_pct * (90 + r.below(21))
    price = max(49, round(cents / 1_000_000 / 10) * 10 - 1)
    tags = base.tags + tuple(
        t
        for t, on in (("organic", style == "Organic"), ("gluten-free", style == "Gluten-Free"))
        if on and t not in base.tags
    )
    words = " ".join(w for w in (brand, style, base.item.title(), f"{size} {unit}") if w)
    return Product(
        sku=f"G{i:05d}",
        name=words + suffix,
        item=base.item,
        department=base.department,
        brand=brand,
        tier=tier,
        size=size,
        unit=unit,
        price_cents=price,
        tags=tags,
        in_stock=k < 2 or r.below(100) >= 4,
    )


@functools.cache
def items() -> tuple[Item, ...]:
    return parse_items((data_dir() / "items.psv").read_text(encoding="utf-8"))


def generate(
    items: tuple[Item, ...], size: int, version: str = "3.0", seed: int = CATALOG_SEED
) -> Catalog:
    """The first `size` SKUs (a published version, or a larger one for benchmarks)."""
    return Catalog(version, (make_product(items, i, seed) for i in range(size)))


def generated_catalog(version: str, size: int | None = None) -> Catalog:
    """A catalog regenerated from the item table (default: the published size)."""
    return generate(items(), size or VERSIONS[version], version)
