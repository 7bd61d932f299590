"""What a run is graded to."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Paid(BaseModel):
    model_config = ConfigDict(frozen=True)

    task_id: str
    world_version: str
    paid_cents: int
    score: float  # 1.0 when exactly the invoice was paid
