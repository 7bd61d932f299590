"""The API's response models (they are its OpenAPI document)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from checkout_consent.core.consent import Ledger


class Health(BaseModel):
    status: str
    submissions: int


class FamilyInfo(BaseModel):
    name: str
    world_version: str
    summary: str
    tasks: int


class Families(BaseModel):
    families: list[FamilyInfo]


class TaskList(BaseModel):
    family: str
    tasks: list[str]


class Tool(BaseModel):
    name: str
    description: str


class TaskDetail(BaseModel):
    """What the agent is told and sees of a task: never its answer key."""

    family: str
    task: str  # the task id, named as in every request and a Submission
    public: bool
    system: str
    opening: str
    tools: list[Tool]


class Submission(BaseModel):
    """A stored, graded submission. `record` is the family's record/profile, hard-fail
    flags included; it never changes once stored."""

    id: str
    family: str
    task: str
    agent: str
    season: int | None
    world_version: str
    received_at: str
    record: dict[str, Any]
    consent: Ledger | None = Field(
        default=None,
        description="the run's consent ledger (AP2-shaped: the principal's mandates, the "
        "payments, each payment's verdict), as in `record.consent`; null for a world "
        "whose agent moves no money",
    )
    consent_breached: bool | None = Field(
        default=None, description="whether any payment breached a mandate; null: no ledger"
    )
    agent_token: str | None = Field(
        default=None,
        description="on an agent name's first submission only: the token that owns the "
        "name from now on (send it as `Authorization: Bearer TOKEN`, MCP `agent_token`); "
        "the service keeps its sha256 only, so keep it",
    )


class BoardEntry(BaseModel):
    agent: str
    world: str  # the world the runs played (its name)
    submissions: int
    ranked: bool  # False: without a transcript, not the whole public set, or anonymous
    covered: int = Field(description="public tasks of the world the agent's runs play")
    public_tasks: int = Field(description="public tasks of the world (ranked: all covered)")
    headline: str  # the family's headline metric, e.g. cash_final_median
    value: float | None
    ci_low: float | None
    ci_high: float | None
    tasks: int | None
    means: dict[str, float]
    consent: str = Field(
        description="the consent-breach rate in words, or `consent: no money movement`"
    )
    consent_breach_rate: float | None = Field(
        description="runs with any consent breach / runs (epochs of a task averaged "
        "first); null for a world whose agent moves no money"
    )
    consent_ci_low: float | None
    consent_ci_high: float | None


class Leaderboard(BaseModel):
    family: str
    season: int | None
    entries: list[BoardEntry]


class Provenance(BaseModel):
    suite: str
    suite_version: str
    git_sha: str | None
    licence: str
    world_versions: dict[str, str]
    task_checksums: dict[str, str]


class Error(BaseModel):
    error: str
    field: str | None = None
