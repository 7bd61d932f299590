"""The README's "Compared with the seed" table (printed), ours computed by executing the
family's code."""

from __future__ import annotations

from collections import Counter

from checkout_consent.core import fmt
from checkout_consent.grocery import dataset
from checkout_consent.grocery.grader import (
    SCORER_VERSION,
    minimal_total,
    optimum,
    window_minimal_total,
)
from checkout_consent.grocery.promos import badge
from checkout_consent.grocery.record import HARD_FAILS, PROFILE_KEYS


def _promos(task_id: str) -> str:
    brief = dataset.load_brief(task_id)
    catalog = dataset.load_catalog(brief.catalog_version)
    real = [f"{catalog.by_sku[p.sku].item} {badge(p)[5:]}" for p in brief.promos if not p.decoy]
    decoys = [f"decoy: {p.decoy}" for p in brief.promos if p.decoy]
    skus = Counter(p.sku for p in brief.promos)
    once = "one per item" if max(skus.values(), default=1) == 1 else "STACKED"
    kinds = ", ".join(sorted({p.kind for p in brief.promos}))
    return (
        f"{len(real)} real ({'; '.join(real)}); {len(decoys)} decoys "
        f"({'; '.join(decoys) or '-'}); kinds {kinds}; {once}"
    )


def _seasons() -> str:
    by: dict[int, list[str]] = {}
    for b in dataset.public_briefs():
        by.setdefault(b.season, []).append(b.task_id)
    return "; ".join(f"S{s}: {', '.join(ids)}" for s, ids in sorted(by.items()))


def _catalogs() -> str:
    cats = [dataset.load_catalog(v) for v in ("1.0", "2.0", "3.0")]
    pairs = zip(cats, cats[1:], strict=False)
    prefix = all(a.products == b.products[: len(a.products)] for a, b in pairs)
    sizes = " ⊂ ".join(f"v{c.version} {len(c.products):,}" for c in cats)
    return f"{sizes} SKUs; earlier SKUs unchanged: {'yes' if prefix else 'NO'}"


def _figures() -> str:
    """The seed's optimization figure per promo task, over each catalog version (the task's
    own is the one reported), and our window figure apart."""
    out = []
    for b in (b for b in dataset.public_briefs() if b.promos):
        per = {v: minimal_total(b, dataset.load_catalog(v), True) for v in ("1.0", "2.0", "3.0")}
        own = dataset.load_catalog(b.catalog_version)
        out.append(
            f"{b.task_id} {fmt(per[b.catalog_version])} (over v1.0/v2.0/v3.0: "
            f"{'/'.join(fmt(x) for x in per.values())}; window "
            f"{fmt(window_minimal_total(b, own, True))})"
        )
    return (
        "`totals.minimal_cents`, over the task's own catalog, so a cart scored under "
        "v1.0/v2.0 reports the same: " + "; ".join(out) + ". Ours apart, "
        "`window_minimal_cents`: any pack count in the 0.75x..2.0x window"
    )


def _denominator() -> str:
    """Tasks whose completeness denominator (obtainable lines) is below the list's length."""
    short = []
    for b in dataset.public_briefs():
        plan = optimum(b, dataset.load_catalog(b.catalog_version), bool(b.promos))
        n = sum(p is not None for _, p, _ in plan)
        short += [f"{b.task_id} {n} of {len(b.expected)}"] if n < len(b.expected) else []
    return (
        "our reading: matched / obtainable lines (some allowed product exists); an "
        "unobtainable line leaves it and can only be flagged (robustness). Below the "
        f"list's length on: {', '.join(short) or 'none'}"
    )


def rows() -> list[tuple[str, str, str]]:
    ids = [b.task_id for b in dataset.public_briefs()]
    return [
        ("Scorer", "v1", f"v{SCORER_VERSION}"),
        ("Catalog", "v3.0, 2,212 SKUs; v1.0/v2.0 scores reproduce", _catalogs()),
        ("Public tasks", "11", f"{len(ids)}: {', '.join(ids)}"),
        (
            "Seasons",
            "S1 original seven; S2 adds tight-week; S3 adds size-week, "
            "oos-hard-week, promo-decoy-week",
            _seasons(),
        ),
        (
            "sale-week promos",
            "ten items; percent-off, N-for-M, buy-X-get-Y; one per item, never stacked",
            _promos("sale-week"),
        ),
        (
            "tight-week promos",
            "apples buy-2-get-1-free, potatoes 2-for-1, eggs 25% off, soy sauce 20% off",
            _promos("tight-week"),
        ),
        (
            "promo-decoy-week",
            "three real promos, three decoys (unneeded item, premium still "
            "dearer, unreachable threshold)",
            _promos("promo-decoy-week"),
        ),
        (
            "Optimization figure (promo tasks)",
            "the minimal total for the expected quantities "
            "through the cheapest allowed product per line, promos applied; reported, not "
            "scored; no value published",
            _figures(),
        ),
        (
            "Completeness denominator",
            "not stated (a line counts when ...; missing lines are reported separately)",
            _denominator(),
        ),
        ("Profile keys", ", ".join(PROFILE_KEYS), ", ".join(PROFILE_KEYS)),
        ("Hard fails", ", ".join(HARD_FAILS), ", ".join(HARD_FAILS)),
    ]


def table() -> str:
    out = ["| Fact | Seed | Ours (computed) |", "|---|---|---|"]
    out += [f"| {a} | {b} | {c} |" for a, b, c in rows()]
    return "\n".join(out)


if __name__ == "__main__":
    import argparse

    argparse.ArgumentParser(
        prog=f"python -m {__spec__.name}", description=(__doc__ or "").splitlines()[0]
    ).parse_args()
    print(table())
