"""The frozen pydantic bases: immutable values whose unknown fields are refused (`Frozen`),
and records, whose unknown fields are ignored (`FrozenRecord`)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Frozen(BaseModel):
    """A frozen, strict-field pydantic model (AP2's types, a world's state and records)."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class FrozenRecord(BaseModel):
    """A frozen record whose unknown fields are ignored, not refused: the records of logs
    already on disk load as they always have."""

    model_config = ConfigDict(frozen=True)
