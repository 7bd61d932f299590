"""Harness for storefront adversary v1: the controls' plans, the oracle and its bound, the
crafted controls and sanity. It reads the seeded world, which no agent sees."""
