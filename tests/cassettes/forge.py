"""Cassette directories for tests: a copy holding some units of a committed one, and a
compact cassette edited as a forger would (a changed response, its check recomputed or
not)."""

import json
import shutil
from pathlib import Path
from typing import Any

from checkout_consent.cassettes import compact, store


def copy_units(
    source: Path, copy: Path, pick: Any = None, task_args: dict | None = None
) -> list[str]:
    """Copy `source` into `copy` keeping the units `pick(names)` chooses (default: all),
    their goldens and run.json (its task args replaced when given); the units kept."""
    units = store.read_units(source)
    kept = sorted(units) if pick is None else pick(sorted(units))
    copy.mkdir(parents=True)
    store.write_cassette(copy, [units[name] for name in kept])
    for name in kept:
        golden = store.unit_stem(name) + store.GOLDEN
        shutil.copy(source / golden, copy / golden)
    manifest = json.loads((source / store.MANIFEST).read_text())
    if task_args is not None:
        manifest["task_args"] = task_args
    (copy / store.MANIFEST).write_text(json.dumps(manifest))
    return kept


def rewrite(directory: Path, unit: str, requests: list[compact.Entry]) -> None:
    """Write the unit back with these requests (the other units as they are)."""
    units = store.read_units(directory)
    units[unit] = units[unit].model_copy(update={"requests": requests})
    store.write_cassette(directory, list(units.values()))


def with_body(entry: compact.Entry, body: str, unit: compact.Unit, reseal: bool) -> compact.Entry:
    """The entry answering `body` instead (its check recomputed when `reseal`)."""
    response = entry.response.model_copy(update={"body": body})
    changed = entry.model_copy(update={"response": response})
    if not reseal:
        return changed
    check = compact.seal(changed.model_dump(), unit.frames[changed.frame], unit.unit)
    return changed.model_copy(update={"check": check})


def forge_response(
    directory: Path, unit: str, index: int, change: Any, reseal: bool = True
) -> None:
    """Replace request `index`'s response body (JSON) in `unit` by `change(body)`."""
    recorded = store.read_units(directory)[unit]
    requests = list(recorded.requests)
    body = json.loads(requests[index].response.body)
    requests[index] = with_body(requests[index], json.dumps(change(body)), recorded, reseal)
    rewrite(directory, unit, requests)
