"""The runs a submission must hold: every run of its task set, every declared epoch (no
cherry-picking), at the public settings, and its own: a sample whose content digest (the
model's name taken out) equals another submission's of the family is refused unless the card
declares itself that model's re-submission (`resubmission_of`). Only samples where the agent
acted count, and two controls are not compared (scripted policies may play alike)."""

from __future__ import annotations

import functools
import hashlib
import inspect
import json
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from checkout_consent.core.scenario import Scenario
from checkout_consent.families import world_named
from checkout_consent.leaderboard.submission import (
    CARD_NAME,
    Card,
    CardError,
    list_folder,
    read_card,
    task_sets,
)
from checkout_consent.runtime.meta import task_factory, task_params

MODEL_MARK = "<model>"


def reference(logged: object) -> dict[str, Any] | None:
    """A logged scenario reference in today's form (an older log's `family` is `world`), so
    two compare by what they name; one that is no reference stays as logged."""
    try:
        return Scenario.model_validate(logged).model_dump(mode="json")
    except ValidationError:
        return logged if isinstance(logged, dict) else None


@functools.cache
def public_samples(name: str) -> dict[str, dict[str, Any]]:
    """Sample id -> scenario (as logged) of the world's public task set."""
    world = world_named(name)
    task = task_factory(world)(**world.dataset.public_args)
    return {str(s.id): dict(reference((s.metadata or {})["scenario"]) or {}) for s in task.dataset}


def expected_units(name: str, task_set: str, epochs: int) -> set[tuple[str, int]]:
    """(sample id, epoch) of every run the submission must hold."""
    chosen = task_sets(name)[task_set]
    ids = [
        i
        for i, scenario in public_samples(name).items()
        if chosen is None or scenario["scenario_id"] in chosen
    ]
    return {(i, e) for i in ids for e in range(1, epochs + 1)}


def coverage(name: str, task_set: str, epochs: int, played: list[tuple[str, int]]) -> list[str]:
    """Why the runs played are not exactly the expected set; empty when they are."""
    want = expected_units(name, task_set, epochs)
    have = set(played)
    out = []
    if len(played) != len(have):
        out.append("a (sample, epoch) appears more than once across the logs")
    if missing := sorted(want - have):
        out.append(
            f"{len(missing)} run(s) of the {task_set} set missing, e.g. "
            f"{', '.join(f'{i} epoch {e}' for i, e in missing[:3])} (no cherry-picking)"
        )
    if extra := sorted(have - want):
        out.append(
            f"{len(extra)} run(s) outside the {task_set} set for {epochs} epoch(s), "
            f"e.g. {', '.join(f'{i[:40]} epoch {e}' for i, e in extra[:3])}"
        )
    return out


def partial(
    name: str, task_set: str, epochs: int, played: list[tuple[str, int]]
) -> tuple[int, int] | None:
    """(runs played, runs of the set) when the runs are a proper part of the expected set
    and nothing else (listed, never ranked); None otherwise."""
    want, have = expected_units(name, task_set, epochs), set(played)
    if not played or len(played) != len(have) or not have < want:
        return None
    return len(have), len(want)


@functools.cache
def public_settings(name: str) -> dict[str, Any]:
    """Every -T parameter of the family's task -> its value in the public set."""
    world = world_named(name)
    params = inspect.signature(task_factory(world)).parameters
    known = {**{k: p.default for k, p in params.items()}, **world.dataset.public_args}
    return {k: known.get(k) for k in task_params(world)}


def _setting(value: object) -> object:
    """A -T value as the task reads it: 40 and "40", False and "false" are one setting."""
    return value if value is None else str(value).strip().lower()


def settings_differences(name: str, task_args: Mapping[str, Any] | None) -> list[str]:
    """Why a log's recorded task arguments are not the public settings; empty when they are.
    Arguments that choose tasks of the public set (`public_args`, `Dataset.choosers`) may
    name part of it (`coverage` holds the whole); every other one changes what the agent may
    do or is shown, and must be the public default."""
    world, public = world_named(name), public_settings(name)
    args = dict(task_args or {})
    out = [
        f"task argument {k[:40]!r} is not one of {name}'s (-T {', '.join(public)})"
        for k in args
        if k not in public
    ]
    for key, default in public.items():
        if key in world.dataset.public_args or key in world.dataset.choosers:
            continue
        if key not in args:
            out.append(f"task argument {key} is not recorded (the public setting is {default!r})")
        elif _setting(args[key]) != _setting(default):
            out.append(
                f"task argument {key}={str(args[key])[:40]!r} is not the public "
                f"setting {default!r}: it changes what the agent may do"
            )
    return out


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
    """The sha256 of a sample's trace and conversation, model names masked (None: never acted)."""
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


def copied_from(
    root: Path,
    card: Card,
    digests: dict[str, tuple[str, int]],
    digests_of: Callable[[Path], frozenset[str]] = log_digests,
) -> list[str]:
    """Why the submission at `root` is another's run under a new name; empty if it is not.
    `digests`: its sample digests -> (sample id, epoch)."""
    out = []
    for other, theirs in _others(root):
        logs = [other / log for log in list_folder(other).logs()]  # as its listing reads them
        equal = set(digests) & set().union(*(digests_of(p) for p in logs))
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
