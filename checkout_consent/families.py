"""The roster: every family this suite ships, one spec each. Nothing else.

Adding a family is a folder with a `SPEC` in its `__init__` and one line here; the CLI,
sanity, the Inspect registry, cassette references and the README table loop over this.
"""

from __future__ import annotations

from checkout_consent.core.controls import ControlRegistry
from checkout_consent.core.family import FamilySpec, dispatching_controls
from checkout_consent.grocery import SPEC as GROCERY
from checkout_consent.pizza import SPEC as PIZZA
from checkout_consent.shopkit import SPEC as SHOPKIT
from checkout_consent.storefront import SPEC as STOREFRONT

FAMILIES: tuple[FamilySpec, ...] = (STOREFRONT, SHOPKIT, PIZZA, GROCERY)


def names() -> list[str]:
    return sorted(f.name for f in FAMILIES)


def family(name: str) -> FamilySpec:
    """The family called `name` (KeyError naming the known families otherwise)."""
    for spec in FAMILIES:
        if spec.name == name:
            return spec
    raise KeyError(f"unknown family {name!r}; families: {', '.join(names())}")


def control_registry() -> ControlRegistry:
    """Every family's controls by full name, `<family>-<control>`."""
    return ControlRegistry({f.name: dispatching_controls(f) for f in FAMILIES})
