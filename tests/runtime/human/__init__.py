"""Tests of the human provider, its page and journal."""
