"""Writers for the grocery data (the world never writes): `checkout-consent grocery build
catalogs|public|heldout --seed N` (held-out briefs: git-ignored; keep the seed secret)."""

from __future__ import annotations

import argparse
import hashlib
import json
import os
from dataclasses import asdict
from pathlib import Path

import yaml

from checkout_consent.core import plain
from checkout_consent.grocery import catalog as cat
from checkout_consent.grocery.authoring.catalogs import VERSIONS, generated_catalog
from checkout_consent.grocery.authoring.heldout import heldout_briefs
from checkout_consent.grocery.authoring.public import budgeted
from checkout_consent.grocery.brief import Brief
from checkout_consent.grocery.dataset import catalog_path, data_dir, load_catalog, public_briefs
from checkout_consent.grocery.promos import Promo

SEED_ENV = "GROCERY_HELDOUT_SEED"


def _promo(promo: Promo) -> dict[str, object]:
    out: dict[str, object] = promo.model_dump(exclude_defaults=True)
    if "percent_bp" in out:
        out["percent"] = promo.percent_bp / 100
    if "off_cents" in out:
        out["off"] = plain(promo.off_cents)
    return {k: v for k, v in out.items() if k not in ("percent_bp", "off_cents")}


def brief_to_yaml(brief: Brief) -> str:
    """Every brief field, empty ones too (dollars at the edge); promos list only their rule."""
    data = brief.model_dump(mode="json", exclude={"budget_cents", "caps", "promos"})
    data["budget"] = plain(brief.budget_cents)
    data["caps"] = [{"item": c.item, "max": plain(c.max_cents)} for c in brief.caps]
    data["promos"] = [_promo(p) for p in brief.promos]
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)


def dumps(catalog: cat.Catalog) -> str:
    """The byte-stable JSONL text of a catalog (one product per line, sorted keys)."""
    return "".join(json.dumps(asdict(p), sort_keys=True) + "\n" for p in catalog.products)


def write_catalogs() -> list[Path]:
    """Write every catalog version and catalogs.sha256 (sha256sum format)."""
    sums, paths = [], []
    for version in VERSIONS:
        text = dumps(generated_catalog(version)).encode()
        catalog_path(version).write_bytes(text)
        sums.append(f"{hashlib.sha256(text).hexdigest()}  {catalog_path(version).name}\n")
        paths.append(catalog_path(version))
    (data_dir() / "catalogs.sha256").write_text("".join(sums), encoding="utf-8")
    return paths


def _write(folder: Path, briefs: list[Brief]) -> list[Path]:
    paths = [folder / f"{brief.task_id}.yaml" for brief in briefs]
    for path, brief in zip(paths, briefs, strict=True):
        path.write_text(brief_to_yaml(brief), encoding="utf-8")
    return paths


def write_public() -> list[Path]:
    """Rewrite every public brief with the budget its slack gives (authoring/public.py)."""
    briefs = [budgeted(b, load_catalog(b.catalog_version)) for b in public_briefs()]
    return _write(data_dir() / "public", briefs)


def write_heldout(seed: int, per_template: int = 2) -> list[Path]:
    """Held-out briefs from the public templates under a secret seed (git-ignored dir)."""
    out = data_dir() / "heldout"
    out.mkdir(exist_ok=True)
    return _write(out, heldout_briefs(public_briefs(), load_catalog("3.0"), seed, per_template))


def _build(args: argparse.Namespace) -> int:
    seed: int | str | None = args.seed if args.seed is not None else os.environ.get(SEED_ENV)
    if args.what in ("catalogs", "public"):
        paths = write_catalogs() if args.what == "catalogs" else write_public()
    elif seed is None:
        raise ValueError(
            f"build heldout needs --seed or the {SEED_ENV} environment variable (keep it secret)"
        )
    else:
        paths = write_heldout(int(seed))
    print("\n".join(str(p) for p in paths))
    return 0


def add_commands(parser: argparse.ArgumentParser) -> None:
    """`checkout-consent grocery build catalogs|public|heldout [--seed N]`."""
    verbs = parser.add_subparsers(dest="grocery_command", required=True)
    build = verbs.add_parser("build", help="write the catalogs, the public or held-out briefs")
    build.add_argument("what", choices=["catalogs", "public", "heldout"])
    build.add_argument(
        "--seed",
        type=int,
        default=None,
        help=f"the secret held-out seed (default: the {SEED_ENV} environment variable)",
    )
    build.set_defaults(fn=_build)
