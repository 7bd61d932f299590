"""The family's only file reader: briefs and catalogs under tasks/grocery/, each parsed
once, and the scenarios a task argument names."""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import Any

import yaml

from checkout_consent.core import Scenario, parse_date, parse_dollars
from checkout_consent.grocery import catalog as cat
from checkout_consent.grocery.brief import Brief
from checkout_consent.runtime.files import tasks_dir

PUBLIC_IDS = (
    "normal-week",
    "budget-week",
    "pantry-first-week",
    "leftover-week",
    "party-week",
    "out-of-stock-week",
    "sale-week",
    "tight-week",
    "size-week",
    "oos-hard-week",
    "promo-decoy-week",
)


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
    data["caps"] = [
        {"item": c["item"], "max_cents": parse_dollars(c["max"], field="cap")}
        for c in raw.get("caps", [])
    ]
    data["promos"] = [_promo(p) for p in raw.get("promos", [])]
    return Brief.model_validate(data)


@functools.cache
def load_brief(task_id: str) -> Brief:
    """A public brief by id, or a held-out one written under tasks/grocery/heldout/."""
    if not re.fullmatch(r"[a-z0-9][a-z0-9-]{0,79}", task_id):
        raise KeyError(f"no grocery task {task_id[:80]!r} (ids are lower-case words and dashes)")
    name = f"{task_id}.yaml"
    path = data_dir() / ("heldout" if task_id.startswith("heldout-") else "public") / name
    if not path.is_file():
        raise KeyError(f"no grocery task {task_id!r} (looked for {path})")
    return brief_from_yaml(yaml.safe_load(path.read_text(encoding="utf-8")))


def public_briefs() -> list[Brief]:
    return [load_brief(t) for t in PUBLIC_IDS]


def seasons() -> dict[int, tuple[str, ...]]:
    """Season k -> the public task ids it added (each brief names its season), in order."""
    out: dict[int, tuple[str, ...]] = {}
    for brief in public_briefs():
        out[brief.season] = (*out.get(brief.season, ()), brief.task_id)
    return dict(sorted(out.items()))


@functools.cache
def load_catalog(version: str) -> cat.Catalog:
    """A published catalog, parsed from its committed JSONL file once."""
    rows = catalog_path(version).read_text(encoding="utf-8").splitlines()
    products = (cat.Product(**dict(json.loads(r), tags=tuple(json.loads(r)["tags"]))) for r in rows)
    return cat.Catalog(version, products)


def scored_on(scenario: Scenario) -> str | None:
    """The scoring date (ISO text) for the dated tight-week rule; never the clock."""
    return scenario.params.get("scored_on") or None


def brief_for(scenario: Scenario) -> Brief:
    return load_brief(scenario.scenario_id)


def catalog_for(scenario: Scenario) -> cat.Catalog:
    return load_catalog(
        scenario.params.get("catalog_version") or brief_for(scenario).catalog_version
    )


def heldout_ids() -> list[str]:
    """The held-out tasks written by `checkout-consent grocery build heldout --seed N`."""
    ids = sorted(p.stem for p in (data_dir() / "heldout").glob("heldout-*.yaml"))
    if not ids:
        raise FileNotFoundError(
            "no held-out grocery tasks; write them with `checkout-consent "
            "grocery build heldout --seed N` (keep N secret)"
        )
    return ids


def scenario(task_id: str, scored_on: object = None) -> Scenario:
    """One task's scenario (KeyError if unknown); `scored_on`: YYYY-MM-DD, or a date."""
    load_brief(task_id)
    on = None if scored_on is None else str(scored_on)  # `inspect eval -T` gives a date
    parse_date(on, "scored_on")
    params = {"scored_on": on} if on else {}
    return Scenario(world="grocery", scenario_id=task_id, seed=0, params=params)


def scenarios(tasks: str = "public", scored_on: object = None) -> list[Scenario]:
    """The task argument's scenarios: "public" (all eleven), "heldout", or ids comma-separated."""
    if tasks == "heldout":
        ids = heldout_ids()
    else:
        ids = list(PUBLIC_IDS) if tasks == "public" else [t.strip() for t in tasks.split(",")]
    return [scenario(t, scored_on) for t in ids]
