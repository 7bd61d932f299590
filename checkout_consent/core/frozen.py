"""The one frozen pydantic base: immutable values whose unknown fields are refused."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Frozen(BaseModel):
    """A frozen, strict-field pydantic model (AP2's types, a world's state and records)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
