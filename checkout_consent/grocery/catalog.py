"""The grocery catalog: products and a token index for search."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import islice


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
            self.words.append(
                frozenset(tokens(f"{p.name} {p.item} {p.department} {' '.join(p.tags)}"))
            )
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
            shortest = self.index[min(common, key=lambda w: len(self.index[w]))]
            for boosted in (True, False):
                yield from (
                    n
                    for n in shortest
                    if (ps[n].sku in boost) == boosted and words_of[n].issuperset(common)
                )
            return
        hits: Counter[int] = Counter()
        for w in rare:
            hits.update(self.index[w])
        buckets: dict[int, list[int]] = {}
        for n, m in hits.items():
            buckets.setdefault(m + sum(w in words_of[n] for w in common), []).append(n)
        for m in sorted(buckets, reverse=True):
            yield from sorted(buckets[m], key=lambda n: (ps[n].sku not in boost, n))

    def search(
        self,
        query: str,
        keep: Callable[[Product], bool] | None = None,
        limit: int = 10,
        boost: frozenset[str] = frozenset(),
    ) -> list[Product]:
        """Best `limit` products for `query` that pass `keep` (the caller's filters)."""
        words = [w for w in dict.fromkeys(tokens(query)) if w in self.index]
        if not words:
            return []
        ranked = (self.products[n] for n in self._ranked(words, boost))
        return list(islice((p for p in ranked if keep is None or keep(p)), limit))
