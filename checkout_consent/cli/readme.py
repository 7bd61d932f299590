"""Regenerate the README's controls-results table by running every family's controls
through Inspect, offline: `python -m checkout_consent.cli.readme`. Never typed by hand."""

from __future__ import annotations

import sys
import tempfile

from checkout_consent.cli.views import summary
from checkout_consent.core.family import ControlRecords
from checkout_consent.families import WORLDS as ALL_WORLDS
from checkout_consent.runtime.files import regenerate
from checkout_consent.runtime.provenance import CHECKOUT, REPO_ROOT
from checkout_consent.runtime.runner import run_controls

HACKER = "hacker"  # every family's reward-hacker control is named so (core/controls.py)
START, END = "<!-- controls-table:start -->", "<!-- controls-table:end -->"


WORLDS = {w.label: w for w in ALL_WORLDS}  # every variant too


def table(results: dict[str, ControlRecords]) -> str:
    """Markdown rows: family (or family/scenario world), control, samples, the world's
    one-line summary. Reward-hacker controls are left out: `sanity` lists each of their
    exploits with what caught it, and each family's README names them."""
    rows = ["| family | control | samples | result |", "|---|---|---|---|"]
    for label, controls in results.items():
        world = WORLDS[label]
        for control, records in controls.items():
            if control == HACKER:
                continue
            headline = summary(world, records).splitlines()[0]
            rows.append(
                f"| {label} | `control/{world.name}-{control}` | {len(records)} | {headline} |"
            )
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    from checkout_consent.cli.common import Parser, log_dir_arg

    ap = Parser(
        prog="python -m checkout_consent.cli.readme",
        description="Run every family's controls through Inspect, offline (several "
        "minutes), and rewrite the controls-results table in README.md.",
    )
    ap.add_argument(
        "--log-dir",
        type=log_dir_arg,
        default=None,
        help="keep the controls' .eval logs here (default: a temporary folder, removed)",
    )
    kept: str | None = ap.parse_args(argv).log_dir
    if CHECKOUT is None:
        ap.error("README.md is the checkout's: run this from a source checkout (pip install -e .)")
    with tempfile.TemporaryDirectory(prefix="cc-readme-") as tmp:
        log_dir = kept or tmp
        results = {label: run_controls(WORLDS[label], log_dir=log_dir) for label in sorted(WORLDS)}
    path = REPO_ROOT / "README.md"
    regenerate(path, [(START, END, table(results))], check=False)
    print(f"updated {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
