"""A copied run under a new name: each sample's content digest (its trace and its
conversation, with the model's name taken out) is compared with every other submission of
the family folder. Equal samples are refused unless the card declares itself the same
model's re-submission of that submission (`resubmission_of: <submission_id>`).

Only samples in which the agent acted (an agent call in the trace) count: two different
models that both do nothing can leave the same empty run. Two controls (`kind: control`,
reference rows, never ranked) are not compared: scripted policies that share a rule play
some tasks identically (two of the committed example controls do, on half their samples)."""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from checkout_consent.leaderboard.schema import CARD_NAME, Card, CardError, read_card

MODEL_MARK = "<model>"


def _message(message: Any) -> dict[str, Any]:
    """What a message says, without ids, sources or the model field."""
    error = getattr(message, "error", None)
    return {
        "role": message.role,
        "text": message.text,
        "calls": [[c.function, c.arguments] for c in getattr(message, "tool_calls", None) or []],
        "error": None if error is None else error.message,
    }


def sample_digest(sample: Any, model: str) -> str | None:
    """The sha256 of a logged sample's trace and conversation with `model` (its full name
    and the name after the provider) replaced by one mark; None when the agent never acted."""
    calls = (sample.store or {}).get("RunStore:calls")
    if not isinstance(calls, list) or not any(
        isinstance(c, dict) and c.get("origin", "agent") == "agent" for c in calls
    ):
        return None
    text = json.dumps(
        {
            "id": str(sample.id),
            "calls": calls,
            "messages": [_message(m) for m in sample.messages or []],
        },
        sort_keys=True,
        ensure_ascii=False,
        default=str,
    )
    for name in sorted({model, model.rsplit("/", 1)[-1]}, key=len, reverse=True):
        if len(name) >= 3:
            text = text.replace(name, MODEL_MARK)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def log_digests(path: Path) -> frozenset[str]:
    """The digests of every sample of the .eval log at `path` (empty if unreadable)."""
    facts = path.stat()
    return _digests(str(path), facts.st_size, facts.st_mtime_ns)


@functools.lru_cache(maxsize=256)  # a board build compares every folder with the others
def _digests(path: str, size: int, mtime_ns: int) -> frozenset[str]:
    from checkout_consent.runtime.logs import read_log

    try:
        log = read_log(path)
    except Exception:  # another submission's log that cannot be read: nothing to compare
        return frozenset()
    digests = (sample_digest(s, str(log.eval.model)) for s in log.samples or [])
    return frozenset(d for d in digests if d is not None)


def _others(root: Path) -> Iterable[tuple[Path, Card | None]]:
    """Every other submission in the folder beside `root` (the family's), with its card."""
    for other in sorted(root.parent.iterdir()):
        if other.name == root.name or other.is_symlink() or not other.is_dir():
            continue
        try:
            yield other, read_card(other)
        except CardError:
            yield other, None


def copied_from(root: Path, card: Card, digests: dict[str, tuple[str, int]]) -> list[str]:
    """Why the submission at `root` is another's run under a new name; empty if it is not.
    `digests` maps each of its sample digests to (sample id, epoch)."""
    out = []
    for other, theirs in _others(root):
        logs = [p for p in sorted((other / "logs").glob("*.eval")) if not p.is_symlink()]
        equal = set(digests) & set().union(*(log_digests(p) for p in logs))
        if not equal:
            continue
        if theirs is not None and (
            (card.resubmission_of == other.name and theirs.model.id == card.model.id)
            or card.kind == theirs.kind == "control"
        ):
            continue  # the same model's declared re-submission; two scripted references
        sid, epoch = min(digests[d] for d in equal)
        model = theirs.model.id if theirs is not None else f"unreadable {CARD_NAME}"
        out.append(
            f"{len(equal)} of {len(digests)} sample(s) equal submission "
            f"{other.name[:64]}'s ({model[:80]}), e.g. {sid[:60]} epoch {epoch}: a "
            f"copied run (the same model's re-submission declares `resubmission_of: "
            f"{other.name[:64]}`)"
        )
    return out
