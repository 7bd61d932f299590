"""Grade a saved shopkit tool log with no model: `checkout-consent score shopkit --task T1
--trace calls.json`. Run calls must carry their recorded `result`; nothing is executed
but the final build."""

from __future__ import annotations

from typing import Any

from checkout_consent.core.offline import grade_saved
from checkout_consent.shopkit import FAMILY
from checkout_consent.shopkit.generate import scenario


def score_trace(task: str, trace: Any) -> dict[str, Any]:
    """Replay the calls from the task's seed, check any recorded observation, and grade."""
    return grade_saved(FAMILY, scenario(task), trace)
