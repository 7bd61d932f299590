"""Seed lists from the command line: `0-9`, `1,4,7`, `3`."""

from __future__ import annotations

import re

MAX_SEEDS = 1_000_000  # a seed list never grows past this, whatever the text says
MAX_SEED = 10**9
_PART = re.compile(r"([0-9]{1,10})(?:-([0-9]{1,10}))?", re.ASCII)


def _part(part: str, text: object) -> range:
    found = _PART.fullmatch(part)
    if found is None:
        raise ValueError(f"bad seed {part[:40]!r} in {str(text)[:80]!r}: seeds are whole "
                         "numbers >= 0, as a range (0-9), a list (1,4,7) or one (3)")
    lo = int(found.group(1))
    hi = int(found.group(2)) if found.group(2) is not None else lo
    if hi < lo:
        raise ValueError(f"seed range {part!r} runs backwards")
    if hi > MAX_SEED:
        raise ValueError(f"seed {hi} is beyond {MAX_SEED:,}")
    return range(lo, hi + 1)


def parse_seeds(text: str | int | list[int]) -> list[int]:
    """'0-9' -> [0..9]; '1,4,7' -> [1, 4, 7]; 3 -> [3]. Negative seeds, garbage, backward
    ranges, duplicates and lists longer than MAX_SEEDS are refused (ValueError)."""
    if isinstance(text, bool):
        raise ValueError(f"seeds must be numbers, got {text!r}")
    if isinstance(text, int):
        text = str(text)
    if isinstance(text, list):
        text = ",".join(str(s) for s in text)
    if not isinstance(text, str):
        raise ValueError(f"seeds must be text like 0-9, got {type(text).__name__}")
    parts = [_part(p.strip(), text) for p in text.split(",") if p.strip()]
    if sum(len(r) for r in parts) > MAX_SEEDS:
        raise ValueError(f"seed list {text[:80]!r} names more than {MAX_SEEDS:,} seeds")
    seeds = [s for r in parts for s in r]
    if not seeds:
        raise ValueError(f"no seeds in {text[:80]!r}")
    if len(set(seeds)) != len(seeds):
        raise ValueError(f"seed list {text[:80]!r} repeats a seed")
    return seeds


def parse_flag(value: bool | str | int, name: str = "a flag") -> bool:
    """A task argument as a boolean: true/false, yes/no, on/off, 1/0."""
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off"):
        return False
    raise ValueError(f"{name} must be true or false, got {value!r}")
