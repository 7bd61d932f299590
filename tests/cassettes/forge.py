"""Editing a compact cassette as a forger would: a changed response, with or without its
check recomputed."""

import json
from pathlib import Path
from typing import Any

from checkout_consent.cassettes import compact, store


def rewrite(path: Path, requests: list[compact.Entry]) -> None:
    unit = store.read_compact(path)
    store.write_compact(path.parent, unit.model_copy(update={"requests": requests}))


def with_body(entry: compact.Entry, body: str, unit: compact.Unit, reseal: bool) -> compact.Entry:
    """The entry answering `body` instead (its check recomputed when `reseal`)."""
    changed = entry.model_copy(
        update={"response": entry.response.model_copy(update={"body": body})}
    )
    if not reseal:
        return changed
    check = compact.seal(changed.model_dump(), unit.frames[changed.frame])
    return changed.model_copy(update={"check": check})


def forge_response(path: Path, index: int, change: Any, reseal: bool = True) -> None:
    """Replace request `index`'s response body (JSON) by `change(body)`."""
    unit = store.read_compact(path)
    requests = list(unit.requests)
    body = json.loads(requests[index].response.body)
    requests[index] = with_body(requests[index], json.dumps(change(body)), unit, reseal)
    rewrite(path, requests)
