"""The board's headline for a world: the world's own (`FamilySpec.headline`, core), the
one definition the Inspect metrics, the CLI, the API and the MCP server read too; and the
world a submission's card names."""

from __future__ import annotations

from checkout_consent.core.family import FamilySpec
from checkout_consent.core.headline import Headline
from checkout_consent.families import world, worlds_of


def headline(label: str) -> Headline:
    """The headline of the world called `label` (`family` or `family/variant`; KeyError for
    an unknown one)."""
    return world(label).headline


def world_of(family: str, world_version: str) -> FamilySpec | None:
    """The world of `family` whose version is `world_version` (None: none of this suite's)."""
    return next((w for w in worlds_of(family) if w.world_version == world_version), None)


def label_of(family: str, world_version: str) -> str:
    """The label of the world a card names; its family's main world for a version this
    suite does not know (a card that validation refuses)."""
    got = world_of(family, world_version)
    return family if got is None else got.label
