"""Regenerate the generated parts of README.md, docs/results.md and docs/suite.md from the
roster: the worlds table (each world's `eval.yaml`), the suite's plain `inspect eval-set`
line, and the controls-results table, by running every world's controls through Inspect,
offline: `python -m checkout_consent.cli.readme` (`--worlds`: all but the controls table,
in seconds). Never typed by hand.

README.md holds the worlds table only while it fits the README's line cap; past it, one
line linking docs/results.md, which always holds both tables."""

from __future__ import annotations

import contextlib
import io
import sys
import tempfile
from collections.abc import Sequence

from checkout_consent.core.family import ControlRecords, World
from checkout_consent.core.summary import summary
from checkout_consent.families import WORLDS
from checkout_consent.families import world as roster_world
from checkout_consent.runtime.files import regenerate, splice
from checkout_consent.runtime.provenance import CHECKOUT, REPO_ROOT
from checkout_consent.runtime.runner import run_controls

HACKER = "hacker"  # every family's reward-hacker control is named so (core/controls.py)
START, END = "<!-- controls-table:start -->", "<!-- controls-table:end -->"
WORLDS_START, WORLDS_END = "<!-- worlds:start -->", "<!-- worlds:end -->"
README, RESULTS = REPO_ROOT / "README.md", REPO_ROOT / "docs" / "results.md"
SUITE_DOC = REPO_ROOT / "docs" / "suite.md"
EVAL_SET_START, EVAL_SET_END = "<!-- eval-set:start -->", "<!-- eval-set:end -->"
# the suite manual's first command, whose plain `inspect eval-set` it shows
SUITE_EXAMPLE = ("--model", "anthropic/claude-sonnet-4-5", "--log-dir", "runs/sonnet")
README_CAP = 250  # lines (tests/core/test_docs.py holds it)


def worlds_table(worlds: Sequence[World], base: str) -> str:
    """One row per world, from its `eval.yaml`: its name (linking its README, relative to
    `base`), what the agent must do, the seed document it carries."""
    rows = ["| world | the agent must | seed document |", "|---|---|---|"]
    rows += [
        f"| [`{w.name}`]({base}checkout_consent/{w.name}/README.md) | {w.meta.description} "
        f"| {w.meta.seed_document} |"
        for w in worlds
    ]
    return "\n".join(rows)


def readme_worlds(readme: str, worlds: Sequence[World]) -> str:
    """The README's worlds block: the table while the README stays within its cap, else
    one line linking the full table."""
    table = worlds_table(worlds, "")
    if splice(readme, WORLDS_START, WORLDS_END, table).count("\n") + 1 <= README_CAP:
        return table
    return f"{len(worlds)} worlds: see [docs/results.md](docs/results.md#worlds)."


def table(results: dict[str, ControlRecords]) -> str:
    """Markdown rows: world, control, samples, the world's one-line summary. Reward-hacker
    controls are left out: `sanity` lists each of their exploits with what caught it, and
    each world's README names them."""
    rows = ["| world | control | samples | result |", "|---|---|---|---|"]
    for name, controls in results.items():
        world = roster_world(name)
        for control, records in controls.items():
            if control == HACKER:
                continue
            headline = summary(world, records).splitlines()[0]
            rows.append(
                f"| {name} | `control/{world.family}-{control}` | {len(records)} | {headline} |"
            )
    return "\n".join(rows)


def eval_set_command() -> str:
    """What `checkout-consent suite ... --print-command` prints for the manual's example."""
    from checkout_consent.cli.main import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["suite", *SUITE_EXAMPLE, "--print-command"])
    if code != 0:
        raise RuntimeError(f"suite --print-command exited {code}")
    return out.getvalue().strip()


def write_worlds(*, check: bool = False) -> bool:
    """Rewrite (with `check`, only compare) what the roster alone decides: both worlds
    tables and the suite manual's eval-set line. True when all were current."""
    readme = README.read_text(encoding="utf-8")
    block = readme_worlds(readme, WORLDS)
    fresh = regenerate(README, [(WORLDS_START, WORLDS_END, block)], check=check)
    full = worlds_table(WORLDS, "../")
    fresh = regenerate(RESULTS, [(WORLDS_START, WORLDS_END, full)], check=check) and fresh
    command = f"```bash\n{eval_set_command()}\n```"
    return regenerate(SUITE_DOC, [(EVAL_SET_START, EVAL_SET_END, command)], check=check) and fresh


def main(argv: list[str] | None = None) -> int:
    from checkout_consent.cli.common import Parser, log_dir_arg

    ap = Parser(
        prog="python -m checkout_consent.cli.readme",
        description="Rewrite the worlds tables (README.md, docs/results.md) and run every "
        "world's controls through Inspect, offline (several minutes), to rewrite the "
        "controls-results table in docs/results.md.",
    )
    ap.add_argument(
        "--log-dir",
        type=log_dir_arg,
        default=None,
        help="keep the controls' .eval logs here (default: a temporary folder, removed)",
    )
    ap.add_argument("--worlds", action="store_true", help="all but the controls table (fast)")
    args = ap.parse_args(argv)
    if CHECKOUT is None:
        ap.error("README.md is the checkout's: run this from a source checkout (pip install -e .)")
    write_worlds()
    if not args.worlds:
        with tempfile.TemporaryDirectory(prefix="cc-readme-") as tmp:
            log_dir = args.log_dir or tmp
            results = {
                w.name: run_controls(w, log_dir=log_dir)
                for w in sorted(WORLDS, key=lambda w: w.name)
            }
        regenerate(RESULTS, [(START, END, table(results))], check=False)
    print(f"updated {README}, {RESULTS} and {SUITE_DOC}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
