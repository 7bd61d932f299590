"""`run` and `sanity`: sanity first (the controls must bracket the score range), then the
model's run, through Inspect, with real .eval logs. Sanity plays the controls through the
pure offline driver (`core.offline.play_and_grade`): tests/core/test_sanity.py proves its
records equal those of the same controls run through Inspect."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Mapping
from typing import Any

from checkout_consent.cli import cassettes as cli_cassettes
from checkout_consent.cli.common import (
    UsageError,
    add_task_arg,
    built_task,
    check_counts,
    check_model,
    check_size,
    err,
    sample_count,
    task_args,
)
from checkout_consent.core.contract import ControlRecords, World
from checkout_consent.core.offline import play_and_grade
from checkout_consent.core.scenario import Scenario
from checkout_consent.core.summary import summary
from checkout_consent.families import names, world_named
from checkout_consent.runtime.runner import RunFailed, log_buffer, run_models


def task_scenarios(world: World, args: Mapping[str, Any] | None = None) -> list[Scenario]:
    """The scenarios the family's task plays with these -T arguments (default: the public set)."""
    task = built_task(world, dict(world.dataset.public_args if args is None else args))
    return [Scenario.model_validate(s.metadata["scenario"]) for s in task.dataset]


def offline_controls(world: World) -> ControlRecords:
    """Every sanity control over the public scenarios, offline, in an Inspect run's order."""
    scenarios = sorted(task_scenarios(world), key=lambda s: str(world.dataset.sample_id(s)))
    return {
        c: [play_and_grade(world, s, world.controls[c]) for s in scenarios]
        for c in world.controls.sanity
    }


def check_controls(world: World) -> tuple[ControlRecords, list[str]]:
    """Play the family's controls offline: their records, and every sanity problem."""
    err(f"sanity {world.name}: playing controls {', '.join(world.controls.sanity)} offline ...")
    records = offline_controls(world)
    problems = world.controls.check_sanity(records) + hacker_problems(world)
    for p in problems:
        err(f"  sanity problem: {p}")
    return records, problems


def hacker_problems(world: World) -> list[str]:
    """The reward-hacker's exploits, one line each; an exploit nothing caught is a problem."""
    if world.controls.exploits is None:
        return []
    caught = world.controls.exploits(world)
    for c in caught:
        err(f"  {c.line()}")
    return [c.line() for c in caught if c.by is None]


def sanity(world: World) -> ControlRecords:
    """Play the family's controls offline and assert they bracket the score range."""
    records, problems = check_controls(world)
    if problems:
        raise RunFailed(
            f"sanity {world.name}: {len(problems)} problem(s); refusing to report results"
        )
    err(f"sanity {world.name}: 0 problem(s){world.views.sanity_note}")
    return records


def _shown(args: argparse.Namespace, world: World, model: str, records: list, log: str) -> dict:
    """A run as --json gives it; printed as lines and its summary otherwise."""
    if not args.json:
        print(f"\n{world.name} | {model} | {len(records)} sample(s)")
        for r in records:
            print("  " + world.views.line(r))
        print("  " + summary(world, records).replace("\n", "\n  "))
    return {
        "family": world.name,
        "scenario": world.meta.scenario,
        "model": model,
        "log": log,
        "records": records,
        "summary": summary(world, records),
    }


def _model_run(args: argparse.Namespace, world: World) -> tuple[list[dict[str, Any]], str]:
    if args.cassette != "off":
        return cli_cassettes.cassette_run(args, world, task_args(args, world))
    extra = {"model_args": cli_cassettes.model_args(args.M)} if args.M else {}
    arguments = task_args(args, world)
    samples = sample_count(world, arguments) * (args.epochs or world.epochs)
    run = run_models(
        world,
        [args.model],
        task_args=arguments,
        task=built_task(world, arguments),
        log_dir=args.log_dir,
        epochs=args.epochs,
        display=args.display,
        max_connections=args.max_connections,
        max_samples=args.max_samples,
        log_buffer=log_buffer(samples),
        model_base_url=args.model_base_url,
        log_realtime=True,
        **extra,
        **cli_cassettes.retry_args(args),
    )[0]
    return run.records, run.log_path


def _controls_run(args: argparse.Namespace, chosen: list[World]) -> tuple[list[Any], int]:
    """Every world's controls, offline; ends with a line per world and a total line."""
    out: list[dict[str, Any]] = []
    lines, failed = [], []
    for world in chosen:
        controls, problems = check_controls(world)
        for control, records in controls.items():
            out.append(_shown(args, world, f"control/{world.family}-{control}", records, ""))
        samples = sum(len(r) for r in controls.values())
        verdict = "as expected" if not problems else f"NOT as expected ({len(problems)} problem(s))"
        lines.append(f"{world.name}: {len(controls)} controls, {samples} samples, {verdict}")
        failed += [world.name] if problems else []
    total = (
        f"total: every control of {len(lines)} worlds as expected"
        if not failed
        else f"total: {len(failed)} of {len(lines)} worlds NOT as expected: {', '.join(failed)}"
    )
    say = err if args.json else print
    say("\n" + "\n".join([*lines, total]))
    return out, 2 if failed else 0  # as a failed sanity exits (RunFailed)


def cmd_run(args: argparse.Namespace) -> int:
    if args.cassette != "off" and not args.model:
        raise UsageError("--cassette record|replay needs --model")
    if args.seeds and not args.model:
        raise UsageError(
            "--seeds chooses the samples of a model's run: it needs --model "
            "(the controls always play the public set)"
        )
    if args.model and args.cassette == "off":  # its key, first: building tasks takes seconds
        cli_cassettes.check_live_key(args, "run")
    chosen = [world_named(args.family)] if args.family else [world_named(n) for n in names()]
    check_counts(args)  # bad input is refused before any slow work (sanity included)
    for world in chosen:
        arguments = task_args(args, world)
        if args.model:
            check_model(args.model, world)
            check_size(args, world, arguments)
    for world in chosen:  # a recording with no key, or a hostile cassette, before sanity
        cli_cassettes.preflight(args, world, task_args(args, world))
    if args.json and args.display is None:
        args.display = "none"  # stdout is the JSON alone; progress lines still go to stderr
    with contextlib.redirect_stdout(sys.stderr) if args.json else contextlib.nullcontext():
        out, status = (_model_runs(args, chosen), 0) if args.model else _controls_run(args, chosen)
    if args.json:
        print(json.dumps(out, indent=2, sort_keys=True))
    elif args.model:
        print(f"\nlogs: {args.log_dir}/ (open with `inspect view --log-dir {args.log_dir}`)")
    return status


def _model_runs(args: argparse.Namespace, chosen: list[World]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for world in chosen:
        sanity(world)
        err(f"run {world.name}: {args.model} ...")
        out.append(_shown(args, world, args.model, *_model_run(args, world)))
    return out


def cmd_sanity(args: argparse.Namespace) -> int:
    for name in args.families or names():
        sanity(world_named(name))
    return 0


def add_parsers(sub: Any) -> None:
    p = sub.add_parser("run", help="run a family (all families' controls when none is named)")
    p.add_argument("family", nargs="?", choices=names())
    p.add_argument(
        "--model",
        help="any Inspect model, e.g. anthropic/claude-opus-4-1, "
        "control/<family>-<control> or control/reference (each world's reference control) "
        "(default: the family's controls, offline)",
    )
    p.add_argument("--seeds", help="shorthand for -T seeds=..., e.g. 0-9 or 1,4,7")
    add_task_arg(p, "task argument (see `checkout-consent list FAMILY`)")
    p.add_argument("--epochs", type=int)
    p.add_argument("--max-connections", type=int)
    p.add_argument(
        "--max-samples",
        type=int,
        help="samples in flight at once (Inspect's; "
        "default: Inspect's adaptive concurrency, 10 for a control model; "
        "a --cassette run keeps Inspect's)",
    )
    p.add_argument("--max-retries", type=int, help="Inspect's retries of a failed model request")
    p.add_argument("--timeout", type=int, help="seconds for a model request, retries included")
    p.add_argument("--display", default=None, help="Inspect display for the model run")
    p.add_argument("--json", action="store_true", help="print the score records as JSON")
    p.add_argument(
        "--allow-large",
        action="store_true",
        help="allow a run of more than 10,000 samples (epochs included)",
    )
    cli_cassettes.add_run_options(p)
    p.set_defaults(fn=cmd_run)
    p = sub.add_parser("sanity", help="assert the controls bracket the score range")
    p.add_argument("families", nargs="*", metavar="FAMILY")
    p.set_defaults(fn=cmd_sanity)
