"""The engine every family stands on: money, randomness, worlds, traces, replay, Inspect glue."""
