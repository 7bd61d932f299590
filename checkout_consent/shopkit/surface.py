"""The shopkit family as the CLI sees it: sanity over the controls, printed lines, and
the `checkout-consent shopkit run|grade` verbs."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from checkout_consent.core.surface import ControlRecords, Record, Surface
from checkout_consent.shopkit import FAMILY, adapters, runs
from checkout_consent.shopkit.generate import brief, load_tasks, task_ids
from checkout_consent.shopkit.grading import grade_build
from checkout_consent.shopkit.offline import score_trace
from checkout_consent.shopkit.vandal import MODES


def check_sanity(records: ControlRecords) -> list[str]:
    """The seed's four checks, read from the noop and reference controls' records."""
    problems: list[str] = []
    for name in ("noop", "reference"):
        seen = sorted(r["task"] for r in records.get(name, []))
        if seen != sorted(task_ids()):
            problems.append(f"{name}: graded tasks {seen}, expected {sorted(task_ids())}")
    for r in records.get("noop", []):
        if r["regress"] != 1.0:
            problems.append(f"{r['task']}: regress is not green on the pristine seed")
        if r["change"] >= 1.0:
            problems.append(f"{r['task']}: the change grader passes on the pristine seed")
    for r in records.get("reference", []):
        if r["change"] != 1.0:
            problems.append(f"{r['task']}: the change grader fails on the reference")
        if r["regress"] != 1.0:
            problems.append(f"{r['task']}: regress is not green on the reference")
    return problems


def line(r: Record) -> str:
    error = f"  build_error: {r['build_error'].strip().splitlines()[-1][:80]}" if r[
        "build_error"] else ""
    return (f"{r['task']}  change {r['change']:.4f} ({r['change_passed']}/{r['change_total']})"
            f"  regress {r['regress']:.4f} ({r['regress_broken']} broken)"
            f"  files {','.join(r['files_changed']) or '-'}{error}")


def summary(records: Sequence[Record]) -> str:
    if not records:
        return "no samples"
    change = sum(r["change"] for r in records) / len(records)
    regress = sum(r["regress"] for r in records) / len(records)
    return (f"mean change {change:.4f}, mean regress {regress:.4f} (two axes, never pooled; "
            f"n={len(records)})")


def list_items() -> list[str]:
    tasks = load_tasks()["tasks"]
    items = [f"task {t} ({tasks[t]['kind']}): {tasks[t]['style']}" for t in tasks]
    return items + [f"vandal mode {m}: {mode.what}" for m, mode in MODES.items()]


def show(item: str) -> str:
    """A task's kind, style and brief."""
    tasks = load_tasks()["tasks"]
    if item not in tasks:
        raise KeyError(f"unknown shopkit task {item!r}; tasks: {', '.join(tasks)}")
    task = tasks[item]
    return f"{item} ({task['kind']}; {task['style']})\n\n{brief(item)}"


def _cmd_run(args: argparse.Namespace) -> int:
    adapter = adapters.get(args.adapter, command_template=args.command, model=args.model,
                           log_dir=args.log_dir)
    tasks = task_ids() if args.task == "all" else [args.task]
    try:
        done = runs.run_many(tasks, adapter, args.epochs)
    except runs.SanityFailed as err:
        print(f"{err}; refusing to proceed", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps([{"task": r.task, "epoch": r.epoch, "metadata": r.metadata,
                           **runs.as_json(r.report)} for r in done], indent=2))
        return 0
    print(f"sanity shopkit: 0 problems\nshopkit | adapter {args.adapter}")
    for r in done:
        error = r.report.build_error
        tail = f"  build_error: {error.strip().splitlines()[-1]}" if error else ""
        print(f"  {r.task} epoch {r.epoch}  change {r.report.change:.4f}  regress "
              f"{r.report.regress:.4f} ({r.report.broken} broken){tail}")
    print("\n".join("  " + s for s in runs.summary(done)))
    return 0


def _cmd_grade(args: argparse.Namespace) -> int:
    report = grade_build(Path(args.build), args.task)
    if args.json:
        print(json.dumps(runs.as_json(report), indent=2))
        return 0
    print(f"{args.task}  change {report.change:.4f}  regress {report.regress:.4f}"
          f"  build_error {report.build_error or '-'}")
    for axis, results in (("change", report.change_assertions),
                          ("regress", report.regress_assertions)):
        for a in results:
            print(f"  {axis:<7} {'PASS' if a.passed else 'FAIL'}  {a.name}: {a.checks}")
    return 0


def add_commands(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="shopkit_command", required=True)
    p = sub.add_parser("run", help="sanity, then run an adapter on a task and grade it")
    p.add_argument("--task", default="T5", choices=[*task_ids(), "all"])
    p.add_argument("--adapter", default="noop",
                   help="noop | reference | vandal:MODE | command | inspect")
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


SURFACE = Surface(
    family=FAMILY,
    task="shopkit",
    task_args={"task": "all"},
    controls=("noop", "reference"),
    reference_control="reference",
    check_sanity=check_sanity,
    line=line,
    summary=summary,
    list_items=list_items,
    add_commands=add_commands,
    show=show,
    score_trace=score_trace,
)
