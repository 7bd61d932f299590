"""How a family meets the CLI: which task to run, which controls bracket it, how its
records print and what its sanity check asserts. Pure: records are plain dicts (the
`record` a family's grader puts in Score.metadata)."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from checkout_consent.core.family import Family

Record = dict[str, Any]
# control name (without the family prefix) -> the records its samples produced
ControlRecords = dict[str, list[Record]]


@dataclass(frozen=True)
class Surface:
    """A family as `checkout-consent` sees it."""

    family: Family
    task: str  # the registered Inspect task name (also `inspect eval checkout_consent/<task>`)
    task_args: dict[str, Any]  # the public scenario set, e.g. {"seeds": "0-9"}
    controls: tuple[str, ...]  # control names (no family prefix) that sanity runs
    reference_control: str  # the control that plays the reference policy
    check_sanity: Callable[[ControlRecords], list[str]]  # problems; empty means sane
    line: Callable[[Record], str]  # one printed line per sample
    summary: Callable[[Sequence[Record]], str]  # the summary block for a set of samples
    list_items: Callable[[], list[str]]  # what `checkout-consent list <family>` prints
    add_commands: Callable[[argparse.ArgumentParser], None] | None = None  # extra CLI verbs
    show: Callable[[str], str] | None = None  # `checkout-consent show <family> <id>`
    # `checkout-consent score <family> --task ID --trace FILE.json`: grade a saved tool log
    score_trace: Callable[[str, list[dict[str, Any]]], Record] | None = None
    epochs: int = 1
    extra: dict[str, Any] = field(default_factory=dict)
