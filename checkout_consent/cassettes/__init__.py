"""Cassettes: record, replay and check a run's provider traffic (vcrpy).

The cassette modes live here, not in `session` (which imports vcrpy and the provider SDKs),
so building the command line costs none of that."""

from typing import Literal

Mode = Literal["record", "replay", "off"]
MODES: tuple[Mode, ...] = ("record", "replay", "off")
