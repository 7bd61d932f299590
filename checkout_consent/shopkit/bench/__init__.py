"""Harness machinery: the `checkout-consent shopkit run|grade` verbs, their adapters and
runs on disk, and the README's vandal table."""
