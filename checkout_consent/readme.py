"""Regenerate the README's controls-results table by running every family's controls
through Inspect, offline: `python -m checkout_consent.readme`. Never typed by hand."""

from __future__ import annotations

import re
import sys

from checkout_consent.core.runner import run_controls
from checkout_consent.core.surface import ControlRecords
from checkout_consent.core.version import REPO_ROOT
from checkout_consent.families import SURFACES

START, END = "<!-- controls-table:start -->", "<!-- controls-table:end -->"


def table(results: dict[str, ControlRecords]) -> str:
    """Markdown rows: family, control, samples, the family's one-line summary."""
    rows = ["| family | control | samples | result |", "|---|---|---|---|"]
    for family, controls in results.items():
        fam = SURFACES[family]
        for control, records in controls.items():
            headline = fam.summary(records).splitlines()[0]
            rows.append(f"| {family} | `control/{family}-{control}` | {len(records)} | "
                        f"{headline} |")
    return "\n".join(rows)


def splice(readme: str, body: str) -> str:
    pattern = re.compile(re.escape(START) + ".*?" + re.escape(END), re.S)
    if not pattern.search(readme):
        raise ValueError(f"README has no {START} ... {END} block")
    return pattern.sub(lambda _: f"{START}\n{body}\n{END}", readme)


def main(log_dir: str = "logs") -> int:
    results = {name: run_controls(fam, log_dir=log_dir) for name, fam in sorted(SURFACES.items())}
    path = REPO_ROOT / "README.md"
    path.write_text(splice(path.read_text(), table(results)))
    print(f"updated {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
