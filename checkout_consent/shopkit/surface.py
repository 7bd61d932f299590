"""The shopkit family as the CLI sees it: sanity over the controls, printed lines, the
list and show verbs, and the scenario `score --task` names. (The `checkout-consent shopkit
run|grade` verbs are harness machinery: bench/verbs.py.)"""

from __future__ import annotations

from collections.abc import Sequence

from checkout_consent.core.family import ControlRecords, Record
from checkout_consent.shopkit.dataset import brief, load_tasks, task_ids, task_info
from checkout_consent.shopkit.vandal import MODES


def check_sanity(records: ControlRecords) -> list[str]:
    """The seed's four checks, read from the noop and reference controls' records."""
    problems: list[str] = []
    for name in ("noop", "reference"):
        seen = sorted(r["task"] for r in records.get(name, []))
        if seen != sorted(task_ids()):
            problems.append(f"{name}: graded tasks {seen}, expected {sorted(task_ids())}")
    for r in records.get("noop", []):
        if r["regress"] != 1.0 or r["regress_extra"] != 1.0:
            problems.append(f"{r['task']}: regress is not green on the pristine seed")
        if r["change"] >= 1.0:
            problems.append(f"{r['task']}: the change grader passes on the pristine seed")
    for r in records.get("reference", []):
        if r["change"] != 1.0:
            problems.append(f"{r['task']}: the change grader fails on the reference")
        if r["regress"] != 1.0 or r["regress_extra"] != 1.0:
            problems.append(f"{r['task']}: regress is not green on the reference")
    return problems


def line(r: Record) -> str:
    error = f"  build_error: {r['build_error'].strip().splitlines()[-1][:80]}" if r[
        "build_error"] else ""
    return (f"{r['task']}  change {r['change']:.4f} ({r['change_passed']}/{r['change_total']})"
            f"  regress {r['regress']:.4f} ({r['regress_broken']} broken)"
            f"  regress_extra {r['regress_extra']:.4f}"
            f"  files {','.join(r['files_changed']) or '-'}{error}")


def summary(records: Sequence[Record]) -> str:
    if not records:
        return "no samples"
    mean = {axis: sum(r[axis] for r in records) / len(records)
            for axis in ("change", "regress", "regress_extra")}
    return (f"mean regress {mean['regress']:.4f}, mean regress_extra "
            f"{mean['regress_extra']:.4f} (three axes, never pooled; n={len(records)})")


def list_items() -> list[str]:
    tasks = load_tasks()["tasks"]
    items = [f"task {t} ({tasks[t]['kind']}): {tasks[t]['style']}" for t in tasks]
    return items + [f"vandal mode {m}: {mode.what}" for m, mode in MODES.items()]


def show(item: str) -> str:
    """A task's kind, style and brief."""
    task = task_info(item)
    return f"{item} ({task['kind']}; {task['style']})\n\n{brief(item)}"


from checkout_consent.shopkit.assertions import REGRESS  # noqa: E402
from checkout_consent.shopkit.bench.verbs import add_commands  # noqa: E402,F401

SANITY_NOTE = f", {len(REGRESS)} regression assertions"
