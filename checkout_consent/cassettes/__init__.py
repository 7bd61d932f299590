"""Cassettes: record, replay and check a run's provider traffic (vcrpy). The modes live here,
not in `session` (vcrpy and the SDKs), so building the command line costs none of that."""

from typing import Literal

Mode = Literal["record", "replay", "off"]
MODES: tuple[Mode, ...] = ("record", "replay", "off")
