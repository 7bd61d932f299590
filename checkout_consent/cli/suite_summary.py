"""The suite's summary: every world's headline over its log (the same figure `run` prints,
`cli/views`), as a table on stdout and as JSON next to the logs (`suite-summary.json`)."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from checkout_consent.core.contract import World
from checkout_consent.core.summary import figure, summary

SUMMARY_FILE = "suite-summary.json"
SCHEMA = "checkout-consent/suite-summary/1"


def _headline(world: World, records: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
    got = figure(world, records)
    if got is None:
        return None
    head = world.headline
    return {
        "key": head.key,
        "statistic": head.statistic,
        "higher_is_better": head.higher_is_better,
        "value": got.value,
        "ci_low": got.low,
        "ci_high": got.high,
        "tasks": got.tasks,
        "runs": got.runs,
        "text": head.describe(got),
    }


def world_row(world: World, task: str, log: Any, want: Any) -> dict[str, Any]:
    """One world's entry: its log's status and, once complete, its headline over records
    re-graded from the log's evidence (never a stored score); a log that fails its checks
    is "refused", with no headline."""
    from checkout_consent.runtime.resume import regraded

    row: dict[str, Any] = {
        "world": world.name,
        "family": world.name,
        "scenario": world.meta.scenario,
        "world_version": world.world_version,
        "task": task,
        "status": "not run" if log is None else str(log.status),
        "log": None if log is None else Path(str(log.location)).name,
        "samples": None,
        "headline": None,
        "summary": None,
        "refused": None,
    }
    if log is not None and log.status == "success":
        records, refused = regraded(str(log.location), world, want)
        if refused is not None:
            row.update(status="refused", refused=refused)
            return row
        row.update(
            samples=len(records),
            headline=_headline(world, records),
            summary=summary(world, records),
        )
    return row


def superseded(log_dir: str, logs: Sequence[Any]) -> list[str]:
    """Logs left `started` by an interrupted run of a task since finished: not part of the run."""
    from checkout_consent.runtime.logs import read_header

    done = {str(log.eval.task_id) for log in logs if log.status == "success"}
    mine = {Path(str(log.location)).name for log in logs}
    out = []
    for path in sorted(Path(log_dir).glob("*.eval")):
        if path.name in mine:
            continue
        try:
            header = read_header(path)
        except Exception:  # a log cut off mid-write is a partial one too
            out.append(path.name)
            continue
        if header.status == "started" and str(header.eval.task_id) in done:
            out.append(path.name)
    return out


def document(model: str, rows: list[dict[str, Any]], stale: list[str]) -> dict[str, Any]:
    return {
        "schema": SCHEMA,
        "model": model,
        "complete": all(r["status"] == "success" for r in rows),
        "worlds": rows,
        "superseded_logs": stale,
    }


def write(log_dir: str, doc: dict[str, Any]) -> Path:
    """DIR/suite-summary.json, replaced whole (a reader never sees half a file)."""
    path = Path(log_dir) / SUMMARY_FILE
    partial = path.with_name(f".{SUMMARY_FILE}.partial")
    partial.write_text(json.dumps(doc, indent=2, sort_keys=True) + "\n")
    os.replace(partial, path)
    return path


def table(doc: dict[str, Any]) -> str:
    """World, samples, headline: one line per world."""
    rows = [("world", "samples", "headline")]
    for r in doc["worlds"]:
        head = r["headline"]["text"] if r["headline"] else r["status"]
        rows.append((r["world"], "-" if r["samples"] is None else str(r["samples"]), head))
    wide = [max(len(row[i]) for row in rows) for i in range(2)]
    return "\n".join(f"{w:<{wide[0]}}  {n:>{wide[1]}}  {h}" for w, n, h in rows)
