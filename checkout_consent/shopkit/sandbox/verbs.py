"""The `checkout-consent shopkit run|grade` verbs: an adapter's edits graded on disk, and
any build directory graded, both straight through the harness."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from checkout_consent.shopkit.assertions import REGRESS
from checkout_consent.shopkit.dataset import task_ids
from checkout_consent.shopkit.grading import grade_build, sanity
from checkout_consent.shopkit.sandbox import adapters, runs


def sanity_line(problems: list[str]) -> str:
    """What the seed's `sanity` prints: the problem count and the regression set's size."""
    return f"sanity: {len(problems)} problem(s), {len(REGRESS)} regression assertions"


def _cmd_sanity(args: argparse.Namespace) -> int:
    problems = sanity()
    for p in problems:
        print(f"  problem: {p}")
    print(sanity_line(problems))
    return 1 if problems else 0


def _cmd_run(args: argparse.Namespace) -> int:
    adapter = adapters.get(
        args.adapter, command_template=args.command, model=args.model, log_dir=args.log_dir
    )
    tasks = task_ids() if args.task == "all" else [args.task]
    try:
        done = runs.run_many(tasks, adapter, args.epochs)
    except runs.SanityFailed as err:
        print(f"{err}; refusing to proceed", file=sys.stderr)
        return 2
    if args.json:
        out = [
            {"task": r.task, "epoch": r.epoch, "metadata": r.metadata, **runs.as_json(r.report)}
            for r in done
        ]
        print(json.dumps(out, indent=2))
        return 0
    print(f"{sanity_line([])}\nshopkit | adapter {args.adapter}")
    for r in done:
        error = r.report.build_error
        tail = f"  build_error: {error.strip().splitlines()[-1]}" if error else ""
        print(
            f"  {r.task} epoch {r.epoch}  change {r.report.change:.4f}  regress "
            f"{r.report.regress:.4f} ({r.report.broken} broken){tail}"
        )
    print("\n".join("  " + s for s in runs.summary(done)))
    return 0


def _cmd_grade(args: argparse.Namespace) -> int:
    build = Path(args.build)
    if not build.is_dir():  # a typo is not a broken build: nothing to grade (exit 2)
        what = "is not a directory" if build.exists() else "does not exist"
        raise FileNotFoundError(f"shopkit grade: --build {args.build} {what}")
    report = grade_build(build, args.task)
    if args.json:
        print(json.dumps(runs.as_json(report), indent=2))
        return 0
    print(
        f"{args.task}  change {report.change:.4f}  regress {report.regress:.4f}"
        f"  build_error {report.build_error or '-'}"
    )
    print(f"  regress_extra {report.regress_extra:.4f} (ours beyond the seed's 13)")
    for axis, results in (
        ("change", report.change_assertions),
        ("regress", report.regress_assertions),
        ("regress_extra", report.regress_extra_assertions),
    ):
        for a in results:
            print(f"  {axis:<13} {'PASS' if a.passed else 'FAIL'}  {a.name}: {a.checks}")
    return 0


def add_commands(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="shopkit_command", required=True)
    p = sub.add_parser("sanity", help="the seed's four checks, straight on the harness")
    p.set_defaults(fn=_cmd_sanity)
    p = sub.add_parser("run", help="sanity, then run an adapter on a task and grade it")
    p.add_argument("--task", default="T5", choices=[*task_ids(), "all"])
    p.add_argument(
        "--adapter", default="noop", help="noop | reference | vandal:MODE | command | inspect"
    )
    p.add_argument("--command", help="for --adapter command: the agent CLI, with {brief}")
    p.add_argument("--model", help="for --adapter inspect: any Inspect model")
    p.add_argument("--epochs", type=int, default=1)
    p.add_argument("--json", action="store_true")
    p.set_defaults(fn=_cmd_run)
    p = sub.add_parser("grade", help="grade any directory holding a shopkit build")
    p.add_argument("--build", required=True)
    p.add_argument("--task", required=True, choices=task_ids())
    p.add_argument("--json", action="store_true")
    p.set_defaults(fn=_cmd_grade)
