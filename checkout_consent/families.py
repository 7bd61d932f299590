"""The families this suite ships, and their control agents. The one place that knows them all."""

from __future__ import annotations

from checkout_consent.core.controls import ControlRegistry
from checkout_consent.core.family import Family
from checkout_consent.core.surface import Surface

# Each family adds itself here: its surface (pure) and its controls.
from checkout_consent.pizza import controls as pizza_controls
from checkout_consent.pizza.surface import SURFACE as PIZZA
from checkout_consent.shopkit import controls as shopkit_controls
from checkout_consent.shopkit.surface import SURFACE as SHOPKIT
from checkout_consent.storefront import controls as storefront_controls
from checkout_consent.storefront.surface import SURFACE as STOREFRONT

SURFACES: dict[str, Surface] = {s.family.name: s for s in (STOREFRONT, SHOPKIT, PIZZA)}
FAMILIES: dict[str, Family] = {name: s.family for name, s in SURFACES.items()}

CONTROLS = ControlRegistry()
for _module in (storefront_controls, shopkit_controls, pizza_controls):
    _module.register(CONTROLS)


def surface(name: str) -> Surface:
    if name not in SURFACES:
        raise KeyError(f"unknown family {name!r}; families: {', '.join(sorted(SURFACES))}")
    return SURFACES[name]
