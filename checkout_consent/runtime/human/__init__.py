"""A person as an Inspect model: the `human` provider, its page and its journal."""
