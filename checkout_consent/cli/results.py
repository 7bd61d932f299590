"""Regenerate the Results tables of README.md, docs/results.md and each family's README from
the committed cassettes' golden records, never typed: `python -m checkout_consent.cli.results
[--check]`."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

from checkout_consent.cassettes import store
from checkout_consent.cassettes.preflight import public_gap
from checkout_consent.core.contract import World
from checkout_consent.core.diagnostics import KEY, Diagnostics
from checkout_consent.core.summary import consent_figure, figure, summary
from checkout_consent.families import world_named
from checkout_consent.runtime.files import regenerate
from checkout_consent.runtime.provenance import REPO_ROOT

README_BLOCK = ("<!-- real-results:start -->", "<!-- real-results:end -->")
LADDER_BLOCK = ("<!-- ladder:start -->", "<!-- ladder:end -->")  # README's and results.md's
NOISE_BLOCK = ("<!-- noise:start -->", "<!-- noise:end -->")  # results.md
FAMILY_BLOCK = ("<!-- results:start -->", "<!-- results:end -->")
NONE_YET = "No run of a model other than the controls is committed yet."


class Run(NamedTuple):
    """One committed cassette directory's run: its world, model and golden records."""

    world: World
    model: str
    records: list[dict[str, Any]]
    part: str = ""  # "seeds 0-3 of 0-9" when the run plays part of the public set

    @property
    def partial(self) -> str:
        """` (partial: seeds 0-3 of 0-9)`, or "" for a run of the whole public set."""
        return f" (partial: {self.part})" if self.part else ""

    @property
    def is_control(self) -> bool:
        """A scripted control served as a model (serve-controls names it family-control)."""
        name = self.model.rsplit("/", 1)[-1]
        return name in {f"{self.world.family}-{c}" for c in self.world.controls}


def committed(root: Path = store.CASSETTE_ROOT) -> list[Run]:
    """Every committed run, by world label then model."""
    runs = []
    for directory in store.run_dirs([root]):
        manifest = store.Manifest.read(directory)
        goldens = store.read_goldens(directory)
        part = public_gap(manifest)
        runs.append(
            Run(
                world_named(manifest.family),
                manifest.model,
                [goldens[u] for u in sorted(goldens)],
                part,
            )
        )
    return sorted(runs, key=lambda r: (r.world.name, r.is_control, r.model))


def broke(records: Sequence[dict[str, Any]]) -> str:
    """What the runs' diagnostics counted, summed over samples ("nothing" when empty)."""
    totals: dict[str, int] = {}
    overflows = 0
    for record in records:
        block = Diagnostics.model_validate(record.get(KEY) or {})
        for name, value in block.block().items():
            if isinstance(value, int):
                totals[name] = totals.get(name, 0) + value
        overflows += block.context_overflow is not None
    parts = [f"{name.replace('_', ' ')} {n}" for name, n in totals.items()]
    parts += [f"context overflow in {overflows} sample(s)"] if overflows else []
    return ", ".join(parts) or "nothing"


def _row(run: Run) -> str:
    head = summary(run.world, run.records).splitlines()[0]
    kind = "control" if run.is_control else "model"
    cells = [run.world.name, f"`{run.model}`", kind, f"{len(run.records)}{run.partial}", head]
    return "| " + " | ".join([*cells, broke(run.records)]) + " |"


def cell(run: Run) -> str:
    """A world's short cell for one model: headline, breach rate, what it broke, partial."""
    world = run.world
    head = figure(world, run.records)
    if head is None:
        return "no samples"
    show = world.headline.show
    out = f"{world.headline.label} {show(head.value)} ({show(head.low)} to {show(head.high)})"
    return f"{out}{breach_words(world, run.records)}; broke: {broke(run.records)}{run.partial}"


def breach_words(world: World, records: Sequence[dict[str, Any]]) -> str:
    """`, agent breaches 60%` (or the counterparty's, where the world measures that)."""
    party = world.breaches.measured
    rate = consent_figure(world, records, party)
    if not world.moves_money or rate is None:
        return ""
    said = "agent breaches" if party == "agent" else "counterparty breaches let through"
    return f", {said} {rate.value:.0%}"


def readme_table(runs: Sequence[Run]) -> str:
    """One row per model that is not a control, one column per world it played."""
    real = [r for r in runs if not r.is_control]
    if not real:
        return NONE_YET
    worlds = sorted({r.world.name for r in real})
    rows = ["| model | " + " | ".join(worlds) + " |", "|---" * (len(worlds) + 1) + "|"]
    for model in sorted({r.model for r in real}):
        played = {r.world.name: cell(r) for r in real if r.model == model}
        rows.append(f"| `{model}` | " + " | ".join(played.get(w, "-") for w in worlds) + " |")
    return "\n".join(rows)


def family_table(runs: Sequence[Run], name: str) -> str:
    mine = [r for r in runs if r.world.name == name]
    head = "| world | model | kind | samples | result | what it broke |\n|---|---|---|---|---|---|"
    body = [_row(r) for r in mine]
    note = [] if any(not r.is_control for r in mine) else ["", NONE_YET]
    return "\n".join([head, *body, *note])


def main(argv: list[str] | None = None) -> int:
    from checkout_consent.cli.common import Parser

    ap = Parser(
        prog="python -m checkout_consent.cli.results",
        description="Rewrite the Results blocks of README.md and the family READMEs from the "
        "committed cassettes' goldens (--check: only say whether they are current).",
    )
    ap.add_argument("--check", action="store_true", help="change nothing; exit 1 if stale")
    check: bool = ap.parse_args(argv).check
    from checkout_consent.cli.discrimination import noise_block, tables

    runs = committed()
    stale = []
    short, full = tables(runs)
    targets = [
        (REPO_ROOT / "docs" / "results.md", README_BLOCK, readme_table(runs)),
        (REPO_ROOT / "README.md", LADDER_BLOCK, short),
        (REPO_ROOT / "docs" / "results.md", LADDER_BLOCK, full),
        (REPO_ROOT / "docs" / "results.md", NOISE_BLOCK, noise_block(runs)),
    ]
    names = sorted({r.world.name for r in runs})
    for name in names:
        path = REPO_ROOT / "checkout_consent" / world_named(name).name / "README.md"
        targets.append((path, FAMILY_BLOCK, family_table(runs, name)))
    for path, (begin, end), body in targets:
        if not regenerate(path, [(begin, end, body)], check=check):
            stale.append(f"{path.relative_to(REPO_ROOT).as_posix()} ({begin})")
    verb = "stale" if check else "updated"
    print(f"{verb}: {', '.join(stale)}" if stale else "results tables are current")
    return 1 if check and stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
