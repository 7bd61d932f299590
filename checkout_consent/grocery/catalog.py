"""The grocery catalog: a seeded generator (pure) and a token index for search. SKU i depends
only on (items, seed, i), so v1.0 (400 SKUs) and v2.0 (1,200) are exact prefixes of v3.0."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import islice

from checkout_consent.core.rng import stream

CATALOG_SEED = 30
VERSIONS: dict[str, int] = {"1.0": 400, "2.0": 1200, "3.0": 2212}
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
        units = tuple((u, tuple(int(s) for s in sizes.split(",")))
                      for u, sizes in (part.split(":") for part in (primary, alt) if part))
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
    tags = base.tags + tuple(t for t, on in (("organic", style == "Organic"),
                                             ("gluten-free", style == "Gluten-Free"))
                             if on and t not in base.tags)
    words = " ".join(w for w in (brand, style, base.item.title(), f"{size} {unit}") if w)
    return Product(sku=f"G{i:05d}", name=words + suffix, item=base.item,
                   department=base.department, brand=brand, tier=tier, size=size, unit=unit,
                   price_cents=price, tags=tags, in_stock=k < 2 or r.below(100) >= 4)


_TOKEN = re.compile(r"[a-z0-9]+")


def _stem(w: str) -> str:
    if w.endswith("oes"):
        return w[:-2]
    return w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w


def tokens(text: str) -> list[str]:
    """Lower-case words, plurals folded: 'Apples'/'apple', 'potatoes'/'potato' match."""
    return [_stem(w) for w in _TOKEN.findall(text.lower())]


class Catalog:
    """An immutable catalog with its lookups precomputed once (by sku, by item, by token)."""

    def __init__(self, version: str, products: Iterable[Product]) -> None:
        self.version = version
        self.products: tuple[Product, ...] = tuple(products)
        self.by_sku = {p.sku: p for p in self.products}
        by_item: dict[str, list[Product]] = {}
        index: dict[str, list[int]] = {}
        self.words: list[frozenset[str]] = []
        for n, p in enumerate(self.products):
            by_item.setdefault(p.item, []).append(p)
            self.words.append(frozenset(tokens(f"{p.name} {p.item} {p.department} "
                                               f"{' '.join(p.tags)}")))
            for w in self.words[-1]:
                index.setdefault(w, []).append(n)
        self.by_item = {k: tuple(v) for k, v in by_item.items()}
        self.index = {w: tuple(ns) for w, ns in index.items()}
        self.common = max(50, len(self.products) // 20)  # postings longer than this: common

    def _ranked(self, words: list[str], boost: frozenset[str]) -> Iterator[int]:
        """Product numbers, most query words matched first, then boosted, then catalog order.
        Rare words generate candidates; common words only add to a candidate's count (or,
        when every word is common, filter the shortest posting list in order, lazily)."""
        rare = [w for w in words if len(self.index[w]) <= self.common]
        common = [w for w in words if len(self.index[w]) > self.common]
        ps, words_of = self.products, self.words
        if not rare:
            first = min(common, key=lambda w: len(self.index[w]))
            full = [n for n in self.index[first] if ps[n].sku in boost]
            yield from (n for n in full if all(w in words_of[n] for w in common))
            yield from (n for n in self.index[first] if ps[n].sku not in boost
                        and all(w in words_of[n] for w in common))
            return
        hits: Counter[int] = Counter()
        for w in rare:
            hits.update(self.index[w])
        buckets: dict[int, list[int]] = {}
        for n, m in hits.items():
            buckets.setdefault(m + sum(w in words_of[n] for w in common), []).append(n)
        for m in sorted(buckets, reverse=True):
            yield from sorted(buckets[m], key=lambda n: (ps[n].sku not in boost, n))

    def search(self, query: str, keep: Callable[[Product], bool] | None = None,
               limit: int = 10, boost: frozenset[str] = frozenset()) -> list[Product]:
        """Best `limit` products for `query` that pass `keep` (the caller's filters)."""
        words = [w for w in dict.fromkeys(tokens(query)) if w in self.index]
        if not words:
            return []
        ranked = (self.products[n] for n in self._ranked(words, boost))
        return list(islice((p for p in ranked if keep is None or keep(p)), limit))


def generate(items: tuple[Item, ...], size: int, version: str = "3.0",
             seed: int = CATALOG_SEED) -> Catalog:
    """The first `size` SKUs (a published version, or a larger one for benchmarks)."""
    return Catalog(version, (make_product(items, i, seed) for i in range(size)))
