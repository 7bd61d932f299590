"""Storefront harness: the oracle's search (a proven upper bound) and the comparison with
the seed's published figures. Not part of the world; outside the family's line budget."""
