"""How the CLI shows the shopkit family: one line per record, the summary, what `list` and
`show` print. (The `checkout-consent shopkit run|grade` verbs run builds: sandbox/verbs.py.)"""

from __future__ import annotations

from collections.abc import Sequence

from checkout_consent.core import Record, Views
from checkout_consent.shopkit.assertions import REGRESS
from checkout_consent.shopkit.dataset import brief, load_tasks, task_info
from checkout_consent.shopkit.sandbox.verbs import add_commands
from checkout_consent.shopkit.vandal import MODES


def line(r: Record) -> str:
    error = (
        f"  build_error: {r['build_error'].strip().splitlines()[-1][:80]}"
        if r["build_error"]
        else ""
    )
    return (
        f"{r['task']}  change {r['change']:.4f} ({r['change_passed']}/{r['change_total']})"
        f"  regress {r['regress']:.4f} ({r['regress_broken']} broken)"
        f"  regress_extra {r['regress_extra']:.4f}"
        f"  files {','.join(r['files_changed']) or '-'}{error}"
    )


def summary(records: Sequence[Record]) -> str:
    if not records:
        return "no samples"
    mean = {
        axis: sum(r[axis] for r in records) / len(records)
        for axis in ("change", "regress", "regress_extra")
    }
    return (
        f"mean regress {mean['regress']:.4f}, mean regress_extra "
        f"{mean['regress_extra']:.4f} (three axes, never pooled; n={len(records)})"
    )


def list_items() -> list[str]:
    tasks = load_tasks()["tasks"]
    items = [f"task {t} ({tasks[t]['kind']}): {tasks[t]['style']}" for t in tasks]
    return items + [f"vandal mode {m}: {mode.what}" for m, mode in MODES.items()]


def show(item: str) -> str:
    """A task's kind, style and brief."""
    task = task_info(item)
    return f"{item} ({task['kind']}; {task['style']})\n\n{brief(item)}"


SANITY_NOTE = f", {len(REGRESS)} regression assertions"  # said after sanity passes


VIEWS = Views(line, summary, list_items, show, add_commands, SANITY_NOTE)
