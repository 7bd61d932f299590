"""The grocery family as the CLI sees it, for SPEC. The printing is machinery and lives in
the harness: lines, the summary, `list` and `show` in bench/views.py; the control ladder's
sanity check in bench/sanity.py."""

from __future__ import annotations

from collections.abc import Sequence

from checkout_consent.core.family import Record
from checkout_consent.grocery.authoring.build import add_commands
from checkout_consent.grocery.bench.sanity import SANITY_CONTROLS, check_sanity
from checkout_consent.grocery.bench.views import line, list_items, show, summary

__all__ = ["SANITY_CONTROLS", "add_commands", "check_sanity", "line", "list_items",
           "profile_means", "show", "summary"]


def profile_means(records: Sequence[Record]) -> dict[str, tuple[float, str | None]]:
    """The mean of each scored profile key over the runs (nulls left out): the board's
    breakdown."""
    sums: dict[str, list[float]] = {}
    for record in records:
        for k, v in (record.get("profile") or {}).items():
            if isinstance(v, int | float) and not k.startswith("efficiency"):
                sums.setdefault(k, []).append(float(v))
    return {k: (sum(v) / len(v), None) for k, v in sorted(sums.items())}
