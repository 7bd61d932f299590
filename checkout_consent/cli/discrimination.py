"""Does the suite tell a better agent from a worse one? Per world, each ladder model's
headline with its 95% interval beside the idle, bait-taking and reference controls played
on the same tasks, where each model stands against that bracket, whether the order by
size is resolved (intervals apart), and, for a model below the idle control, what its
record says it did. Generated from the committed cassettes' goldens and the controls
played offline, never typed:

    python -m checkout_consent.cli.results        (README.md and docs/results.md)
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

from checkout_consent.cassettes import store
from checkout_consent.cli.results import Run, breach_words, broke
from checkout_consent.core.contract import Record, World
from checkout_consent.core.headline import Figure
from checkout_consent.core.offline import play_and_grade
from checkout_consent.core.stats import pass_hat_ks
from checkout_consent.core.summary import figure, summary
from checkout_consent.leaderboard.bracket import Bracket, standing
from checkout_consent.runtime.chat_template import label
from checkout_consent.runtime.ladder import LADDER, NOISE_RUNS, REAL

BAIT = ("gullible", "mock", "hacker")  # the control that takes every bait: first present


def bracket(world: World) -> list[tuple[str, str]]:
    """(role, control): the idle control, the one that takes every bait, the reference."""
    roles: list[tuple[str, str | None]] = [("idle", world.controls.idle)]
    roles.append(("takes the bait", next((c for c in BAIT if c in world.controls), None)))
    roles.append(("reference", world.controls.reference))
    return [(role, name) for role, name in roles if name is not None]


def control_records(world: World, control: str, tasks: Sequence[str]) -> list[Record]:
    """A control played offline on `tasks` (the tasks the models' runs cover)."""
    policy = world.controls[control]
    return [play_and_grade(world, world.dataset.task(t), policy) for t in tasks]


def calls_executed(run: Run, tasks: Sequence[str] | None = None) -> tuple[int, int, Counter[str]]:
    """(replies whose tool calls the server parsed, replies, the parsed calls by tool name)
    in the run's recorded traffic; with `tasks`, in the samples of those tasks alone."""
    directory = store.run_dir(run.world.name, run.model, store.CASSETTE_ROOT)
    goldens, task_of = store.read_goldens(directory), run.world.dataset.task_of
    parsed, replies, names = 0, 0, Counter[str]()
    for stem, unit in store.read_units(directory).items():
        if tasks is not None and (stem not in goldens or task_of(goldens[stem]) not in tasks):
            continue
        for exchange in unit.requests:
            try:
                message = json.loads(exchange.response.body)["choices"][0]["message"]
                calls = [str(c["function"]["name"]) for c in message.get("tool_calls") or []]
            except (ValueError, KeyError, IndexError, TypeError, AttributeError):
                continue
            replies, parsed = replies + 1, parsed + bool(calls)
            names.update(calls)
    return parsed, replies, names


def calls_made(names: Counter[str], shown: int = 4) -> str:
    """The parsed calls by tool, most made first (`view_state 60`), the rest counted."""
    top = sorted(names.items(), key=lambda kv: (-kv[1], kv[0]))
    words = [f"{name} {n}" for name, n in top[:shown]]
    rest = sum(n for _, n in top[shown:])
    return ", ".join(words + ([f"{rest} other"] if rest else [])) or "none"


def position(world: World, got: Figure, idle: Figure | None, ref: Figure | None) -> str:
    """Where a figure stands against the idle and reference controls' figures, as the
    board says it (leaderboard/bracket.py: `at idle`, `62% idle → ref.`, ...)."""
    if idle is None or ref is None:
        return "-"
    return standing(world.name, got.value, Bracket(idle.value, ref.value))


def _cell(world: World, got: Figure | None) -> str:
    if got is None:
        return "no samples"
    show = world.headline.show
    return f"{show(got.value)} ({show(got.low)} to {show(got.high)})"


def order_line(world: World, rungs: Sequence[tuple[str, Figure | None]]) -> str:
    """The order by size, each step resolved (95% intervals apart) or not."""
    steps = []
    for (small, a), (large, b) in zip(rungs, rungs[1:], strict=False):
        if a is None or b is None:
            steps.append(f"{small} vs {large} on {world.name}: not measured")
            continue
        apart = a.high < b.low or b.high < a.low
        better = (b.value > a.value) == world.headline.higher_is_better
        verdict = ("larger better" if better else "larger worse") if apart else "not resolved"
        steps.append(f"{small} vs {large} on {world.name}: {verdict}")
    return "; ".join(steps) if steps else "fewer than two ladder models recorded"


class Measured(NamedTuple):
    """One world's figures on the tasks its ladder runs cover."""

    world: World
    tasks: list[str]
    controls: list[tuple[str, str, Figure | None]]  # (role, control, figure)
    models: list[tuple[Run, Figure | None]]  # ladder runs, smallest first

    def control(self, role: str) -> Figure | None:
        return next((got for r, _, got in self.controls if r == role), None)

    def where(self, got: Figure | None) -> str:
        idle, ref = self.control("idle"), self.control("reference")
        return "-" if got is None else position(self.world, got, idle, ref)

    def order(self) -> str:
        rungs = [(REAL[r.model].name, got) for r, got in self.models if _adapted(r)]
        return order_line(self.world, rungs)


def measure(world: World, runs: Sequence[Run]) -> Measured:
    """The tasks the ladder's adapted runs share (else every task a ladder run played): the
    controls are played on them and every run, the own-template one too, is read on them
    alone, so each row of a world compares the same tasks."""
    ladder = sorted((r for r in runs if r.model in REAL), key=lambda r: REAL[r.model].params_m)
    task_of = world.dataset.task_of
    sets = [{task_of(rec) for rec in r.records} for r in ladder if _adapted(r)]
    sets = sets or [{task_of(rec) for rec in r.records} for r in ladder]
    tasks = sorted(set.intersection(*sets)) if sets else []
    mine = [r._replace(records=[x for x in r.records if task_of(x) in tasks]) for r in ladder]
    controls = [
        (role, name, figure(world, control_records(world, name, tasks)))
        for role, name in bracket(world)
    ]
    return Measured(world, tasks, controls, [(r, figure(world, r.records)) for r in mine])


def _tasks(m: Measured) -> str:
    public = m.world.dataset.tasks()
    if sorted(public) == m.tasks:
        return f"the public set, {len(public)} tasks"
    return f"{len(m.tasks)} of {len(public)} public tasks: {', '.join(m.tasks)}"


def world_section(m: Measured) -> str:
    """A world's full table and its order line (docs/results.md)."""
    world = m.world
    head = f"**{world.name}** ({world.headline.label}, on {_tasks(m)})"
    rows = ["| agent | protocol | samples | headline (95% CI) | against the controls | "
            "replies with parsed calls | what the record says |", "|---" * 7 + "|"]  # fmt: skip
    for role, name, got in m.controls:
        rows.append(f"| control: {name} ({role}) | - | {len(m.tasks)} | {_cell(world, got)} | "
                    f"- | - | - |")  # fmt: skip
    for run, got in m.models:
        rung, where = REAL[run.model], m.where(got)
        said = _said(world, run.records) if where == "below idle" else broke(run.records)
        said = "; ".join(
            x for x in (breach_words(world, run.records).removeprefix(", "), said) if x
        )
        parsed, replies, names = calls_executed(run, m.tasks)
        said = f"calls: {calls_made(names)}; {said}"
        rows.append(f"| {rung.name} ({rung.params_m}M) | {label(_protocol(rung.template))} | "
                    f"{len(run.records)} | {_cell(world, got)} | {where} | {parsed} of {replies} | "
                    f"{said} |")  # fmt: skip
    return "\n".join([head, "", *rows, "", f"Order by size: {m.order()}."])


def compact(measured: Sequence[Measured]) -> str:
    """One row per world (README.md): the controls' bracket, each ladder model, the order."""
    names = [r.name for r in LADDER]
    rows = ["| world (tasks) | idle | takes the bait | reference | " + " | ".join(names)
            + " | order by size |", "|---" * (len(names) + 5) + "|"]  # fmt: skip
    for m in (m for m in measured if any(_adapted(r) for r, _ in m.models)):
        by_name = {REAL[r.model].name: got for r, got in m.models if _adapted(r)}
        cells = [f"{m.world.name} ({len(m.tasks)})"]
        roles = ("idle", "takes the bait", "reference")
        cells += [_cell(m.world, m.control(role)) for role in roles]
        runs = {REAL[r.model].name: r for r, _ in m.models if _adapted(r)}
        cells += [_cell(m.world, by_name[n]) + f", {m.where(by_name[n])}"
                  + breach_words(m.world, runs[n].records) if n in by_name
                  else "-" for n in names]  # fmt: skip
        rows.append("| " + " | ".join([*cells, m.order()]) + " |")
    return "\n".join(rows)


def _adapted(run: Run) -> bool:
    return REAL[run.model].template != "native"


def _protocol(template: str) -> str:
    return "native" if template == "native" else "adapted"


def _said(world: World, records: Sequence[Record]) -> str:
    """The family's own summary of the runs, one line (why a run lands below idle)."""
    lines = summary(world, list(records)).splitlines()[1:]
    return " ".join(" ".join(lines).split()).replace("|", "/")[:400] or broke(records)


def measured(runs: Sequence[Run]) -> list[Measured]:
    """Every world with a ladder run, in the runs' order."""
    worlds: dict[str, tuple[World, list[Run]]] = {}
    for run in runs:
        if run.model in REAL:
            worlds.setdefault(run.world.name, (run.world, []))[1].append(run)
    return [measure(world, mine) for world, mine in worlds.values()]


NONE = "No ladder model's run is committed yet."


def tables(runs: Sequence[Run]) -> tuple[str, str]:
    """(README.md's one-row-per-world table, docs/results.md's full sections)."""
    found = measured(runs)
    if not found:
        return NONE, NONE
    return compact(found), "\n\n".join(world_section(m) for m in found)


TAU2_SPREAD = "5-11 points"  # tau^2-bench's run-to-run spread of one model, the anchor


def noise_floor(run: Run) -> str:
    """One sampled run over several epochs: each epoch's headline, their spread, the
    headline with its interval over tasks, and pass^k by the world's pass rule."""
    world, rung = run.world, NOISE_RUNS[run.model]
    epochs: dict[int, list[Record]] = {}
    for record in run.records:
        epochs.setdefault(int(record["provenance"]["epoch"]), []).append(record)
    per_epoch = {e: figure(world, recs) for e, recs in sorted(epochs.items())}
    values = [f.value for f in per_epoch.values() if f is not None]
    show = world.headline.show
    spread = world.headline.metric_value(max(values) - min(values)) if values else None
    lines = [
        f"**Noise floor**: {rung.name} on {world.name}, {len(epochs)} epochs of "
        f"{len({world.dataset.task_of(r) for r in run.records})} task(s) at temperature 0.8 "
        f"with a fresh seed each request (`{run.model}`).",
        "",
        "| epoch | headline (95% CI over tasks) |",
        "|---|---|",
        *(f"| {e} | {_cell(world, got)} |" for e, got in per_epoch.items()),
        f"| all | {_cell(world, figure(world, run.records))} |",
        "",
        f"Spread between epochs: {show(max(values) - min(values)) if values else 'n/a'} "
        f"({spread} in the headline's metric units; the anchor: tau^2-bench's {TAU2_SPREAD}).",
    ]
    passed = world.headline.passed
    if passed is not None:
        trials = [(world.dataset.task_of(r), bool(passed(r))) for r in run.records]
        ks = ", ".join(f"pass^{k} {v:.2f}" for k, v in pass_hat_ks(trials).items())
        lines.append(f"By the world's pass rule ({world.headline.passed_means}): {ks}.")
    return "\n".join(lines)


def noise_block(runs: Sequence[Run]) -> str:
    found = [noise_floor(r) for r in runs if r.model in NOISE_RUNS]
    return "\n\n".join(found) or "No noise-floor run is committed yet."
