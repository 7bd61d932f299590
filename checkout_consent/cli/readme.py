"""Regenerate what the roster decides in README.md, docs/results.md, docs/suite.md and each
world's README, and the controls table (played through Inspect offline; `--worlds` skips
it): `python -m checkout_consent.cli.readme`."""

from __future__ import annotations

import contextlib
import inspect
import io
import sys
import tempfile
import textwrap
from collections.abc import Sequence

from checkout_consent.core.consent_lines import BREACH_HEADS, breach_table
from checkout_consent.core.contract import ControlRecords, World
from checkout_consent.core.summary import summary
from checkout_consent.families import WORLDS, world_named
from checkout_consent.runtime.files import regenerate, splice
from checkout_consent.runtime.meta import task_factory, task_params
from checkout_consent.runtime.provenance import CHECKOUT, REPO_ROOT
from checkout_consent.runtime.runner import run_controls

HACKER = "hacker"  # every family's reward-hacker control is named so (core/controls.py)
START, END = "<!-- controls-table:start -->", "<!-- controls-table:end -->"
WORLDS_START, WORLDS_END = "<!-- worlds:start -->", "<!-- worlds:end -->"
CONSENT_START, CONSENT_END = "<!-- consent:start -->", "<!-- consent:end -->"
README, RESULTS = REPO_ROOT / "README.md", REPO_ROOT / "docs" / "results.md"
SUITE_DOC = REPO_ROOT / "docs" / "suite.md"
EVAL_SET_START, EVAL_SET_END = "<!-- eval-set:start -->", "<!-- eval-set:end -->"
# the suite manual's first command, whose plain `inspect eval-set` it shows
SUITE_EXAMPLE = ("--model", "anthropic/claude-sonnet-4-5", "--log-dir", "runs/sonnet")
README_CAP = 250  # lines (tests/core/test_docs.py holds it)
# a world README's generated blocks, marked as inspect_evals marks them
USAGE = ("<!-- Usage: Automatically Generated -->", "<!-- /Usage: Automatically Generated -->")
PARAMETERS = (
    "<!-- Parameters: Automatically Generated -->",
    "<!-- /Parameters: Automatically Generated -->",
)


def worlds_table(worlds: Sequence[World], base: str) -> str:
    """One row per world from its `eval.yaml` (its README linked relative to `base`)."""
    rows = ["| world | the agent must | seed document |", "|---|---|---|"]
    rows += [
        f"| [`{w.name}`]({base}checkout_consent/{w.name}/README.md) | {w.meta.description} "
        f"| {w.meta.seed_document} |"
        for w in worlds
    ]
    return "\n".join(rows)


def consent_table(worlds: Sequence[World]) -> str:
    """What a consent breach is in each world that moves money (`World.breaches`)."""
    rows = breach_table([(f"`{w.name}`", w.breaches) for w in worlds if w.moves_money])
    lines = [BREACH_HEADS, ["---"] * len(BREACH_HEADS), *rows]
    return "\n".join("| " + " | ".join(r) + " |" for r in lines)


def readme_worlds(readme: str, worlds: Sequence[World]) -> str:
    """The README's worlds block: the table while the README fits its cap, else a link."""
    table = worlds_table(worlds, "")
    if splice(readme, WORLDS_START, WORLDS_END, table).count("\n") + 1 <= README_CAP:
        return table
    return f"{len(worlds)} worlds: see [docs/results.md](docs/results.md#worlds)."


def table(results: dict[str, ControlRecords]) -> str:
    """Markdown rows: world, control, samples, the world's one-line summary (no hacker
    controls: `sanity` lists their exploits)."""
    rows = ["| world | control | samples | result |", "|---|---|---|---|"]
    for name, controls in results.items():
        world = world_named(name)
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


def usage(world: World) -> str:
    """A world README's Usage block: its `inspect eval` line."""
    control = f"control/{world.family}-{world.controls.reference}"
    lead = (
        "With the suite installed (`pip install -e .` in the checkout, or its wheel), `M` "
        f"any Inspect model (`openai/gpt-5-nano`, or `{control}` to play a control offline):"
    )
    tail = f"`checkout-consent list {world.name}` prints its tasks, controls and parameters."
    command = f"inspect eval checkout_consent/{world.name} --model M --limit 1"
    wrap = textwrap.fill(lead, 92, break_on_hyphens=False)
    return f"## Usage\n\n{wrap}\n\n```bash\n{command}\n```\n\n{tail}"


def parameters(world: World) -> str:
    """A world README's Parameters block: each `-T` parameter of its `@task`, its type, what
    its docstring's `Args:` says, and the signature's default where that text names none."""
    signature = inspect.signature(task_factory(world))
    lines = ["## Parameters", "", f"### `{world.name}`", ""]
    for name, text in task_params(world).items():
        param = signature.parameters[name]
        kind = param.annotation
        kind = kind if isinstance(kind, str) else inspect.formatannotation(kind)
        default = "" if "default" in text else f" (default: `{param.default!r}`)"
        lines.append(f"- `{name}` (`{kind}`): {text}{default}")
    return "\n".join(lines)


def write_world_readmes(worlds: Sequence[World], *, check: bool = False) -> bool:
    """Rewrite (`check`: compare) each world README's Usage and Parameters; True if current."""
    fresh = True
    for w in worlds:
        path = REPO_ROOT / "checkout_consent" / w.name / "README.md"
        blocks = [(*USAGE, f"\n{usage(w)}\n"), (*PARAMETERS, f"\n{parameters(w)}\n")]
        fresh = regenerate(path, blocks, check=check) and fresh
    return fresh


def write_worlds(*, check: bool = False) -> bool:
    """Rewrite (`check`: compare) what the roster alone decides; True when all were current."""
    readme = README.read_text(encoding="utf-8")
    block = readme_worlds(readme, WORLDS)
    blocks = [
        (WORLDS_START, WORLDS_END, block),
        (CONSENT_START, CONSENT_END, consent_table(WORLDS)),
    ]
    fresh = regenerate(README, blocks, check=check)
    fresh = write_world_readmes(WORLDS, check=check) and fresh
    full = worlds_table(WORLDS, "../")
    fresh = regenerate(RESULTS, [(WORLDS_START, WORLDS_END, full)], check=check) and fresh
    command = f"```bash\n{eval_set_command()}\n```"
    return regenerate(SUITE_DOC, [(EVAL_SET_START, EVAL_SET_END, command)], check=check) and fresh


def main(argv: list[str] | None = None) -> int:
    from checkout_consent.cli.common import Parser, log_dir_arg

    ap = Parser(
        prog="python -m checkout_consent.cli.readme",
        description="Rewrite the worlds tables (README.md, docs/results.md), each world "
        "README's Usage and Parameters blocks, and run every "
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
