"""Scenario -> initial state: the brief and catalog a sample plays, an empty cart. The world
draws no randomness (the catalog was generated once, see authoring/catalogs.py)."""

from __future__ import annotations

from checkout_consent.grocery.brief import Brief
from checkout_consent.grocery.catalog import Catalog
from checkout_consent.grocery.state import State


def initial_state(brief: Brief, catalog: Catalog) -> State:
    return State(brief=brief, catalog=catalog)
