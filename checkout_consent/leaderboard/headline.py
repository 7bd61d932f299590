"""The board's headline for a family: the family's own (`FamilySpec.headline`, core), the
one definition the Inspect metrics, the CLI, the API and the MCP server read too."""

from __future__ import annotations

from checkout_consent.core.headline import Headline
from checkout_consent.families import family


def headline(name: str) -> Headline:
    """The headline of the family called `name` (KeyError for an unknown family)."""
    return family(name).headline
