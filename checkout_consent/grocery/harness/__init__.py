"""Tooling around the grocery world (not the world itself): docs tables, later Inspect glue."""
