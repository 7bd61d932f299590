"""The shopkit score record: both axes, every assertion, and the facts of the run."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from checkout_consent.shopkit.grading import AssertionResult


class ShopkitRecord(BaseModel):
    """One graded build. `change` and `regress` are assertion fractions, never pooled."""

    model_config = ConfigDict(frozen=True)

    task: str
    world_version: str
    change: float
    regress: float
    change_passed: int
    change_total: int
    regress_broken: int
    regress_total: int
    build_error: str | None
    change_assertions: tuple[AssertionResult, ...]
    regress_assertions: tuple[AssertionResult, ...]
    files_changed: tuple[str, ...]
    edits: int
    runs: int
    finished: bool
    landlock: bool
    grade_seconds: float
    model_id: str
    epoch: int
    input_tokens: int
    output_tokens: int
    turns_used: int
    inspect_version: str
    suite_version: str
    suite_git_sha: str | None
