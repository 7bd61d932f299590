"""Regenerate the README's controls-results table by running every family's controls
through Inspect, offline: `python -m checkout_consent.cli.readme`. Never typed by hand."""

from __future__ import annotations

import sys

from checkout_consent.core.family import ControlRecords
from checkout_consent.families import family, names
from checkout_consent.runtime.files import regenerate
from checkout_consent.runtime.provenance import REPO_ROOT
from checkout_consent.runtime.runner import run_controls

START, END = "<!-- controls-table:start -->", "<!-- controls-table:end -->"


def table(results: dict[str, ControlRecords]) -> str:
    """Markdown rows: family, control, samples, the family's one-line summary."""
    rows = ["| family | control | samples | result |", "|---|---|---|---|"]
    for family_name, controls in results.items():
        fam = family(family_name)
        for control, records in controls.items():
            headline = fam.summary(records).splitlines()[0]
            rows.append(f"| {family_name} | `control/{family_name}-{control}` | {len(records)} | "
                        f"{headline} |")
    return "\n".join(rows)


def main(log_dir: str = "logs") -> int:
    results = {name: run_controls(family(name), log_dir=log_dir) for name in names()}
    path = REPO_ROOT / "README.md"
    regenerate(path, [(START, END, table(results))], check=False)
    print(f"updated {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
