"""The one line a new family adds to the roster, made at run time for the scratch family:
`Member(WORLD, Views)` appended to `checkout_consent.families`, before any layer imports it."""

from __future__ import annotations


def add() -> None:
    from checkout_consent import families
    from tests.scratch.family import WORLD, Views

    families.ROSTER = (*families.ROSTER, families.Member(WORLD, Views))
    families.WORLDS = tuple(m.spec for m in families.ROSTER)
    families.WORLDS = tuple(w for w in families.WORLDS if w.variant is None)
