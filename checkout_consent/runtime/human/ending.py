"""The run's end on the page (each sample's score, the log's path, the time played), from
Inspect's hooks, registered by the provider's first turn (`register`), never at import."""

from __future__ import annotations

from typing import Any

from inspect_ai.hooks import Hooks, SampleEnd, TaskEnd, hooks

from checkout_consent.runtime.human.desk import Desk
from checkout_consent.runtime.human.journal import play_seconds

DESKS: list[Desk] = []  # every page this process serves (the provider adds them)


def minutes(seconds: float) -> str:
    """`754.2 s (12 min 34 s)`: the seconds a card states, and the time as a person reads it."""
    whole = round(seconds)
    return f"{seconds:.1f} s" + (f" ({whole // 60} min {whole % 60} s)" if whole >= 60 else "")


def sample_line(sample: Any) -> str:
    """One line for a finished sample: its score (the scorer's answer), or why none."""
    played = minutes(play_seconds(sample))
    head = f"Sample {sample.id} epoch {sample.epoch}"
    if sample.error is not None:
        return f"{head}: no score (it ended in an error: {str(sample.error.message)[:200]})"
    if not sample.scores:
        return f"{head}: no score (the run was stopped before it ended); played {played}"
    scored = "; ".join(
        f"score {score.answer or score.value} ({name})" for name, score in sample.scores.items()
    )
    return f"{head}: {scored}; played {played}"


class HumanEnd(Hooks):
    """Tells every human page of the process how each sample and task ended."""

    def enabled(self) -> bool:
        return bool(DESKS)

    async def on_sample_end(self, data: SampleEnd) -> None:
        for desk in DESKS:
            desk.end(sample_line(data.sample))

    async def on_task_end(self, data: TaskEnd) -> None:
        log = data.log
        for desk in DESKS:
            desk.end(f"Task {log.eval.task} ended ({log.status}); its log:", log.location or "-")


_REGISTERED: list[type[Hooks]] = []


def register() -> None:
    """Register the hooks, once per process, from inside an eval: Inspect prints hooks
    registered earlier in a banner, which a process with no person must not change."""
    if not _REGISTERED:
        _REGISTERED.append(
            hooks(name="checkout_consent_human_end", description="the human page's end")(HumanEnd)
        )
