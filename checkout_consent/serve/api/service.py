"""What the HTTP API and the MCP server both answer, once: families, tasks, scoring into
storage, stored submissions, leaderboards, provenance. The surfaces are thin over this."""

from __future__ import annotations

import functools
import hashlib
from statistics import mean
from typing import Any

from checkout_consent.core.headline import Figure, Headline
from checkout_consent.core.offline import play_and_grade
from checkout_consent.families import FAMILIES, family
from checkout_consent.runtime.files import tasks_dir
from checkout_consent.runtime.provenance import git_sha, suite_version
from checkout_consent.serve.api.storage import Row, Storage
from checkout_consent.serve.api.submission import TASK_ID, Invalid, parse_json, score

LICENCE = "MIT"
MAX_BENCHMARK_TASKS = 50


class NotFound(LookupError):
    """No such family, task or submission (answered 404)."""


def spec_of(name: str) -> Any:
    try:
        return family(name)
    except KeyError:
        raise NotFound(f"unknown family {name!r}") from None


@functools.cache
def task_checksum(name: str) -> str:
    """SHA-256 over a family's packaged task data (relative paths and bytes, sorted)."""
    digest = hashlib.sha256()
    root = tasks_dir(name)
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def numeric(record: dict[str, Any]) -> dict[str, float]:
    """The record's top-level numbers (booleans count as 0/1): what a board averages."""
    return {k: float(v) for k, v in record.items()
            if isinstance(v, int | float) and not isinstance(v, str)}


def _entry(head: Headline, agent: str, rows: list[Row], got: Figure | None) -> dict[str, Any]:
    values = [numeric(r.record) for r in rows]
    return {"agent": agent, "submissions": len(rows), "ranked": got is not None,
            "headline": head.name, "value": None if got is None else got.value,
            "ci_low": None if got is None else got.low,
            "ci_high": None if got is None else got.high,
            "tasks": None if got is None else got.tasks,
            "means": {k: mean(v[k] for v in values if k in v) for k in values[0]}}


class Service:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    def families(self) -> list[dict[str, Any]]:
        return [{"name": f.name, "world_version": f.world_version, "summary": f.summary_line,
                 "tasks": len(f.public_task_ids())} for f in FAMILIES]

    def tasks(self, name: str) -> list[str]:
        return spec_of(name).public_task_ids()

    def task(self, name: str, task_id: str) -> dict[str, Any]:
        spec = spec_of(name)
        if not TASK_ID.match(task_id):
            raise NotFound(f"no {name} task {task_id[:100]!r}")
        try:
            text = spec.show(task_id)
        except (ValueError, KeyError, FileNotFoundError):
            raise NotFound(f"no {name} task {task_id!r}") from None
        return {"family": name, "id": task_id, "public": task_id in spec.public_task_ids(),
                "text": text}

    def score(self, name: str, body: bytes) -> Row:
        """Grade a submission and store it; Invalid (nothing stored) when it is refused."""
        spec = spec_of(name)
        data = parse_json(body)
        scored = score(spec, data)
        return self.storage.add(name, scored.task, scored.agent, scored.season, data,
                                scored.record)

    def submission(self, submission_id: str) -> Row:
        found = self.storage.get(submission_id[:100])
        if found is None:
            raise NotFound(f"no submission {submission_id[:100]!r}")
        return found

    def leaderboard(self, name: str, season: int | None = None) -> list[dict[str, Any]]:
        """Per agent, best first by the family's headline (`FamilySpec.headline`: the same
        statistic, interval and order as every other surface): the headline, its interval,
        tasks, submissions and the mean of each numeric record field. A submission graded
        without a transcript (a bare cart) is stored and listed after the ranked agents,
        never ranked."""
        head = spec_of(name).headline
        ranked: dict[str, list[Row]] = {}
        listed: dict[str, list[Row]] = {}
        for row in self.storage.rows(name, season):
            (ranked if "calls" in row.submission else listed).setdefault(row.agent, []).append(row)
        figures = {a: head.figure([(r.task, r.record) for r in rows]) for a, rows in ranked.items()}
        board = [_entry(head, a, ranked[a], figures[a]) for a in head.rank(figures)]
        return board + [_entry(head, a, listed[a], None) for a in sorted(listed)]

    def provenance(self) -> dict[str, Any]:
        return {"suite": "checkout-consent", "suite_version": suite_version(),
                "git_sha": git_sha(), "licence": LICENCE,
                "world_versions": {f.name: f.world_version for f in FAMILIES},
                "task_checksums": {f.name: task_checksum(f.name) for f in FAMILIES}}

    def run_benchmark(self, name: str, control: str | None = None) -> dict[str, Any]:
        """Play one control offline over the family's public tasks (no model, no storage)."""
        spec = spec_of(name)
        chosen = control or spec.reference_control
        if chosen not in spec.controls:
            raise Invalid("control", f"{name} has no control {chosen!r}; controls: "
                          f"{', '.join(spec.controls)}")
        records = [play_and_grade(spec, spec.scenario_for(t), spec.controls[chosen])
                   for t in spec.public_task_ids()[:MAX_BENCHMARK_TASKS]]
        return {"family": name, "control": chosen, "lines": [spec.line(r) for r in records],
                "summary": spec.summary(records)}
