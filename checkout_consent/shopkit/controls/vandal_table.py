"""Regenerate (or `--check`) the vandal table and the "Compared with the seed" table of the
family README by executing every vandal mode, the sanity check and the noop control."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import NamedTuple

from checkout_consent.runtime.files import readme_main
from checkout_consent.shopkit.assertions import REGRESS
from checkout_consent.shopkit.dataset import build_tree, task_ids
from checkout_consent.shopkit.grading import sanity
from checkout_consent.shopkit.sandbox import adapters
from checkout_consent.shopkit.sandbox.runs import require_sanity, run_once
from checkout_consent.shopkit.vandal import MODES

README = Path(__file__).parent.parent / "README.md"
MARKERS = {
    "vandal": ("<!-- vandal-table:begin -->", "<!-- vandal-table:end -->"),
    "seed": ("<!-- seed-table:begin -->", "<!-- seed-table:end -->"),
}
TASK = "T1"  # the vandals are plausible wrong attempts at T1

# The seed's published figures (shopkit-bench README, 6 Aug 2026), copied as it prints them.
SEED_VANDALS: dict[str, tuple[str, int]] = {
    "(noop)": ("1.0000", 0),
    "`returns_float`": ("0.9231", 1),
    "`kills_error_path`": ("0.9231", 1),
    "`breaks_subtotal`": ("0.8462", 2),
    "`edits_the_data`": ("0.7692", 3),
    "`syntax_error`": ("0.0000", 13),
}
SEED_FIGURES: dict[str, str] = {
    "sanity problems": "0",
    "regression assertions": "13",
    "tasks": "5",
    "planted defects": "3",
    "products in the dataset": "5",
    "orders in the dataset": "5",
    "seed code lines": "~200",
    "noop `change` on T2": "0.5",
    "noop `change` on T3": "0.25",
    "noop `change` on T1": "(not published)",
}


class Row(NamedTuple):
    label: str
    what: str
    regress: float
    broken: int
    total: int
    extra_broken: int
    extra_total: int
    change: float


def rows() -> list[Row]:
    """Noop and each vandal mode, executed on a fresh seed and graded for T1."""
    out = []
    plans = [("(noop)", "nothing", adapters.noop)] + [
        (f"`{m}`", mode.what, adapters.vandal(m)) for m, mode in MODES.items()
    ]
    for label, what, adapter in plans:
        r = run_once(TASK, adapter).report
        out.append(
            Row(
                label,
                what,
                r.regress,
                r.broken,
                len(r.regress_assertions),
                r.extra_broken,
                len(r.regress_extra_assertions),
                r.change,
            )
        )
    return out


def vandal_table(done: list[Row]) -> str:
    lines = [
        "| vandal mode | what it did | seed `regress` | ours | seed broken | ours broken "
        "| `regress_extra` broken | T1 `change` |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in done:
        seed_regress, seed_broken = SEED_VANDALS[r.label]
        lines.append(
            f"| {r.label} | {r.what} | {seed_regress} | {r.regress:.4f} | "
            f"{seed_broken} | {r.broken} of {r.total} | {r.extra_broken} of "
            f"{r.extra_total} | {r.change:.4f} |"
        )
    return "\n".join(lines)


def ours() -> dict[str, str]:
    """Every seed figure's counterpart here, each from executing or reading the build."""
    seed = dict(build_tree("seed"))
    data = {name: json.loads(seed[f"data/{name}.json"]) for name in ("products", "orders")}
    code = sum(t.count("\n") for p, t in seed.items() if p.endswith(".py"))
    noop = {t: run_once(t, adapters.noop).report.change for t in ("T1", "T2", "T3")}
    return {
        "sanity problems": str(len(sanity())),
        "regression assertions": str(len(REGRESS)),
        "tasks": str(len(task_ids())),
        "planted defects": str(sum(t.count("PLANTED BUG") for t in seed.values())),
        "products in the dataset": str(len(data["products"])),
        "orders in the dataset": str(len(data["orders"])),
        "seed code lines": str(code),
        **{f"noop `change` on {t}": f"{v:g}" for t, v in noop.items()},
    }


WHY = {
    "seed code lines": "the seed says about 200; ours counts every line of the five "
    "modules and `__init__.py`",
    "noop `change` on T1": "the seed does not publish it; ours is as executed (1 of 4 "
    "assertions holds by accident: `fmt` groups thousands)",
}


def seed_table(done: list[Row]) -> str:
    lines = ["| figure | seed | ours | difference |", "|---|---|---|---|"]
    mine = ours()
    for name, seed in SEED_FIGURES.items():
        lines.append(f"| {name} | {seed} | {mine[name]} | {WHY.get(name, 'none')} |")
    for r in done:
        seed_regress, seed_broken = SEED_VANDALS[r.label]
        lines.append(
            f"| vandal {r.label}: `regress`, broken | {seed_regress}, {seed_broken} | "
            f"{r.regress:.4f}, {r.broken} | none |"
        )
    return "\n".join(lines)


def _blocks() -> list[tuple[str, str, str]]:
    require_sanity()
    done = rows()
    return [(*MARKERS["vandal"], vandal_table(done)), (*MARKERS["seed"], seed_table(done))]


def main(argv: list[str] | None = None) -> int:
    stale = "the vandal or seed table in the README is out of date"
    return readme_main(argv, __doc__, README, _blocks, stale)


if __name__ == "__main__":
    sys.exit(main())
