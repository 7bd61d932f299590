"""The grocery catalog: a seeded generator (pure) and a token index for search.

SKU i depends only on (CATALOG_SEED, i), so catalog v1.0 (the first 400 SKUs) and v2.0
(the first 1,200) are exact prefixes of v3.0 (2,212): same ids, same fields.
"""

from __future__ import annotations

import functools
import heapq
import json
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import asdict, dataclass

from checkout_consent.core.rng import stream

CATALOG_SEED = 30
VERSIONS: dict[str, int] = {"1.0": 400, "2.0": 1200, "3.0": 2212}
# item | department | primary unit: pack sizes | alternate unit: sizes | cents per unit | tags
_ITEMS = """apples|produce|lb:1,3,5|each:1,6|149|vegan gluten-free
potatoes|produce|lb:2,5,10|each:1,3|99|vegan gluten-free
onions|produce|lb:1,3|each:1|119|vegan gluten-free
carrots|produce|lb:1,2||139|vegan gluten-free
tomatoes|produce|lb:1,2|each:1,4|229|vegan gluten-free
lettuce|produce|each:1||199|vegan gluten-free
cilantro|produce|bunch:1|oz:1|99|vegan gluten-free
parsley|produce|bunch:1|oz:1|109|vegan gluten-free
bananas|produce|lb:1,3||69|vegan gluten-free
lemons|produce|each:1,6||79|vegan gluten-free
garlic|produce|each:1,3||69|vegan gluten-free
spinach|produce|oz:5,10||59|vegan gluten-free
bell peppers|produce|each:1,3||129|vegan gluten-free
avocados|produce|each:1,4||149|vegan gluten-free
eggs|dairy|dozen:1,2|each:6,18|349|vegetarian gluten-free
milk|dairy|qt:2,4||129|vegetarian gluten-free
butter|dairy|lb:1||499|vegetarian gluten-free
cheddar|dairy|oz:8,16||59|vegetarian gluten-free
yogurt|dairy|oz:6,32||19|vegetarian gluten-free
oat milk|dairy|qt:1,2||279|vegan
tofu|dairy|oz:14||25|vegan gluten-free
chicken breast|meat|lb:1,2,3||449|gluten-free
ground beef|meat|lb:1,2||579|gluten-free
salmon|meat|lb:1||1199|gluten-free
bacon|meat|oz:12,16||59|gluten-free
rice|pantry|lb:2,5||149|vegan gluten-free
spaghetti|pantry|oz:16||12|vegan
flour|pantry|lb:2,5||89|vegan
sugar|pantry|lb:2,4||99|vegan gluten-free
olive oil|pantry|floz:16,32||49|vegan gluten-free
soy sauce|pantry|floz:10,15||39|vegan
black beans|pantry|can:1,4||119|vegan gluten-free
canned tomatoes|pantry|can:1,4||149|vegan gluten-free
peanut butter|pantry|oz:16||25|vegan gluten-free
oats|pantry|oz:18,42||22|vegan
coffee|pantry|oz:12||79|vegan gluten-free
tortillas|bakery|ct:8,10||49|vegan
bread|bakery|each:1||349|vegan
hamburger buns|bakery|ct:8||45|vegetarian
tortilla chips|snacks|oz:10,13||39|vegan gluten-free
potato chips|snacks|oz:8,10||45|vegan gluten-free
salsa|snacks|oz:16||25|vegan gluten-free
cookies|snacks|oz:10||45|vegetarian
soda|beverages|ct:12||59|vegan gluten-free
sparkling water|beverages|ct:8,12||55|vegan gluten-free
frozen peas|frozen|oz:12,16||23|vegan gluten-free
ice cream|frozen|oz:48||11|vegetarian gluten-free
hot sauce|pantry|floz:5||79|vegan gluten-free"""
_BRANDS = (("Store Basics", "generic"), ("Value Fresh", "generic"), ("Everyday", "generic"),
           ("Harvest Reserve", "premium"), ("Golden Acre", "premium"), ("Artisan Table", "premium"))
_STYLES = ("", "Organic", "Family", "Gluten-Free", "Classic", "Select", "Farmhouse", "Signature")


@dataclass(frozen=True)
class Product:
    """One SKU: `price_cents` buys one pack of `size` `unit`."""

    sku: str
    name: str
    item: str
    department: str
    brand: str
    tier: str
    size: int
    unit: str
    price_cents: int
    tags: tuple[str, ...]
    in_stock: bool


@dataclass(frozen=True)
class _Item:
    item: str
    department: str
    units: tuple[tuple[str, tuple[int, ...]], ...]
    cents_per_unit: int
    tags: tuple[str, ...]


def _parse_items() -> tuple[_Item, ...]:
    out = []
    for row in _ITEMS.splitlines():
        item, dept, primary, alt, cents, tags = row.split("|")
        units = tuple((u, tuple(int(s) for s in sizes.split(",")))
                      for u, sizes in (part.split(":") for part in (primary, alt) if part))
        out.append(_Item(item, dept, units, int(cents), tuple(tags.split())))
    return tuple(out)


ITEMS = _parse_items()


def make_product(i: int, seed: int = CATALOG_SEED) -> Product:
    """SKU number `i`: a function of (seed, i) alone."""
    base, k = ITEMS[i % len(ITEMS)], i // len(ITEMS)
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
    tags = base.tags + tuple(t for t, on in (("organic", style == "Organic"),
                                             ("gluten-free", style == "Gluten-Free"))
                             if on and t not in base.tags)
    words = " ".join(w for w in (brand, style, base.item.title(), f"{size} {unit}") if w)
    return Product(sku=f"G{i:05d}", name=words + suffix, item=base.item,
                   department=base.department, brand=brand, tier=tier, size=size, unit=unit,
                   price_cents=price, tags=tags, in_stock=k < 2 or r.below(100) >= 4)


_TOKEN = re.compile(r"[a-z0-9]+")


def tokens(text: str) -> list[str]:
    """Lower-case words with a plural 's' dropped: 'Apples' and 'apple' match."""
    return [w[:-1] if len(w) > 3 and w.endswith("s") else w for w in _TOKEN.findall(text.lower())]


class Catalog:
    """An immutable catalog with its lookups precomputed once (by sku, by item, by token)."""

    def __init__(self, version: str, products: Iterable[Product]) -> None:
        self.version = version
        self.products: tuple[Product, ...] = tuple(products)
        self.by_sku = {p.sku: p for p in self.products}
        self.by_item: dict[str, tuple[Product, ...]] = {}
        index: dict[str, list[int]] = {}
        for n, p in enumerate(self.products):
            self.by_item[p.item] = (*self.by_item.get(p.item, ()), p)
            words = tokens(f"{p.name} {p.item} {p.department} {' '.join(p.tags)}")
            for w in set(words):
                index.setdefault(w, []).append(n)
        self.index = {w: tuple(ns) for w, ns in index.items()}

    def search(self, query: str, keep: object = None, limit: int = 10,
               boost: frozenset[str] = frozenset()) -> list[Product]:
        """Best `limit` matches: most query words matched, boosted skus first, catalog order.

        `keep` is an optional predicate on a Product (the caller's filters)."""
        hits: Counter[int] = Counter()
        for w in set(tokens(query)):
            hits.update(self.index.get(w, ()))
        ps = self.products
        pool = ((-m, ps[n].sku not in boost, n) for n, m in hits.items()
                if keep is None or keep(ps[n]))  # type: ignore[operator]
        return [ps[n] for _, _, n in heapq.nsmallest(limit, pool)]


def generate(size: int, version: str = "3.0", seed: int = CATALOG_SEED) -> Catalog:
    return Catalog(version, (make_product(i, seed) for i in range(size)))


@functools.cache
def build(version: str) -> Catalog:
    """A published catalog version, generated in memory (the committed file is its dump)."""
    return generate(VERSIONS[version], version)


def dumps(catalog: Catalog) -> str:
    """The byte-stable JSONL text of a catalog (one product per line, sorted keys)."""
    return "".join(json.dumps(asdict(p), sort_keys=True) + "\n" for p in catalog.products)
