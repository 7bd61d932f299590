"""Benchmarks and README tables for the grocery family (not the world): the seed table."""
