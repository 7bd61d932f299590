"""The reference a sample carries to the world it plays: never an answer key."""

from __future__ import annotations

from typing import Any

from pydantic import AliasChoices, BaseModel, ConfigDict, Field


class Scenario(BaseModel):
    """Which world a sample plays: a reference, never an answer key. The family's dataset
    rebuilds everything else (task data, answer key) from the packaged tasks/ data."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    # the world's name; logs written before issue 43 call it `family`
    world: str = Field(validation_alias=AliasChoices("world", "family"))
    scenario_id: str
    seed: int
    params: dict[str, Any] = {}  # public knobs only (e.g. replies on/off, a custom brief)
    # the world version the sample was played on (World.version; set by
    # runtime.tasks.sample); None only in references built for offline play
    version: int | None = None
