"""The family's only file I/O: task briefs and catalogs under tasks/grocery/.

Run `python -m checkout_consent.grocery.dataset catalogs` to write the catalog files and
their checksums, or `... heldout --seed N` to write held-out briefs (git-ignored).
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
from datetime import date
from pathlib import Path
from typing import Any

import yaml

from checkout_consent.core.family import Scenario
from checkout_consent.core.money import parse_dollars
from checkout_consent.core.version import tasks_dir
from checkout_consent.grocery import catalog as cat
from checkout_consent.grocery.brief import Brief
from checkout_consent.grocery.generate import heldout_briefs, initial_state
from checkout_consent.grocery.state import State

PUBLIC_IDS = ("normal-week", "budget-week", "pantry-first-week", "leftover-week", "party-week",
              "out-of-stock-week", "sale-week", "tight-week", "size-week", "oos-hard-week",
              "promo-decoy-week")


def data_dir() -> Path:
    return tasks_dir("grocery")


def catalog_path(version: str) -> Path:
    return data_dir() / f"catalog-v{version}.jsonl"


def _promo(raw: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in raw.items() if k not in ("percent", "off")}
    if "percent" in raw:
        out["percent_bp"] = round(float(raw["percent"]) * 100)
    if "off" in raw:
        out["off_cents"] = parse_dollars(raw["off"], field="promo off")
    return out


def brief_from_yaml(raw: dict[str, Any]) -> Brief:
    """A brief as written in YAML (dollars at the edge) to the model (cents inside)."""
    data = dict(raw)
    data["budget_cents"] = parse_dollars(data.pop("budget"), field="budget")
    data["caps"] = [{"item": c["item"], "max_cents": parse_dollars(c["max"], field="cap")}
                    for c in raw.get("caps", [])]
    data["promos"] = [_promo(p) for p in raw.get("promos", [])]
    return Brief.model_validate(data)


def brief_to_yaml(brief: Brief) -> str:
    data = brief.model_dump(mode="json", exclude_defaults=True)
    data["budget"] = f"{data.pop('budget_cents') / 100:.2f}"
    if brief.caps:
        data["caps"] = [{"item": c.item, "max": f"{c.max_cents / 100:.2f}"} for c in brief.caps]
    for p in data.get("promos", []):
        if "percent_bp" in p:
            p["percent"] = p.pop("percent_bp") / 100
        if "off_cents" in p:
            p["off"] = f"{p.pop('off_cents') / 100:.2f}"
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)


@functools.cache
def load_brief(task_id: str) -> Brief:
    """A public brief by id, or a held-out one written under tasks/grocery/heldout/."""
    name = f"{task_id}.yaml"
    path = data_dir() / ("heldout" if task_id.startswith("heldout-") else "public") / name
    if not path.is_file():
        raise KeyError(f"no grocery task {task_id!r} (looked for {path})")
    return brief_from_yaml(yaml.safe_load(path.read_text(encoding="utf-8")))


def public_briefs() -> list[Brief]:
    return [load_brief(t) for t in PUBLIC_IDS]


@functools.cache
def items() -> tuple[cat.Item, ...]:
    return cat.parse_items((data_dir() / "items.psv").read_text(encoding="utf-8"))


def generated_catalog(version: str, size: int | None = None) -> cat.Catalog:
    """A catalog regenerated from the item table (default: the published size)."""
    return cat.generate(items(), size or cat.VERSIONS[version], version)


@functools.cache
def load_catalog(version: str) -> cat.Catalog:
    """A published catalog, parsed from its committed JSONL file once."""
    rows = catalog_path(version).read_text(encoding="utf-8").splitlines()
    products = (cat.Product(**dict(json.loads(r), tags=tuple(json.loads(r)["tags"])))
                for r in rows)
    return cat.Catalog(version, products)


def scored_on(scenario: Scenario) -> date | None:
    raw = scenario.params.get("scored_on")
    return date.fromisoformat(raw) if raw else None


def brief_for(scenario: Scenario) -> Brief:
    return load_brief(scenario.scenario_id)


def catalog_for(scenario: Scenario) -> cat.Catalog:
    return load_catalog(scenario.params.get("catalog_version") or brief_for(scenario)
                        .catalog_version)


def initial(scenario: Scenario) -> State:
    return initial_state(brief_for(scenario), catalog_for(scenario))


def write_catalogs() -> list[Path]:
    """Write every catalog version and catalogs.sha256 (sha256sum format)."""
    sums, paths = [], []
    for version in cat.VERSIONS:
        text = cat.dumps(generated_catalog(version)).encode()
        catalog_path(version).write_bytes(text)
        sums.append(f"{hashlib.sha256(text).hexdigest()}  {catalog_path(version).name}\n")
        paths.append(catalog_path(version))
    (data_dir() / "catalogs.sha256").write_text("".join(sums), encoding="utf-8")
    return paths


def write_heldout(seed: int, per_template: int = 2) -> list[Path]:
    """Held-out briefs from the public templates under a secret seed (git-ignored dir)."""
    out = data_dir() / "heldout"
    out.mkdir(exist_ok=True)
    paths = []
    for brief in heldout_briefs(public_briefs(), load_catalog("3.0"), seed, per_template):
        paths.append(out / f"{brief.task_id}.yaml")
        paths[-1].write_text(brief_to_yaml(brief), encoding="utf-8")
    return paths


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m checkout_consent.grocery.dataset")
    parser.add_argument("what", choices=["catalogs", "heldout"])
    parser.add_argument("--seed", type=int, help="the secret held-out seed")
    args = parser.parse_args(argv)
    if args.what == "heldout" and args.seed is None:
        parser.error("heldout needs --seed (keep it secret)")
    paths = write_catalogs() if args.what == "catalogs" else write_heldout(args.seed)
    print("\n".join(str(p) for p in paths))


if __name__ == "__main__":
    main()
