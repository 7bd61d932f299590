"""Task-argument values from the command line: seed lists, flags and calendar dates."""

from __future__ import annotations

import calendar
import re

MAX_SEEDS = 1_000_000  # a seed list never grows past this, whatever the text says
MAX_SEED = 10**9
_PART = re.compile(r"([0-9]{1,10})(?:-([0-9]{1,10}))?", re.ASCII)
_SEED_ID = re.compile(r"0|[1-9][0-9]{0,9}", re.ASCII)  # a task id's seed: one spelling
_DATE = re.compile(r"([0-9]{4})-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])", re.ASCII)


def _part(part: str, text: object) -> range:
    found = _PART.fullmatch(part)
    if found is None:
        raise ValueError(
            f"bad seed {part[:40]!r} in {str(text)[:80]!r}: seeds are whole "
            "numbers >= 0, as a range (0-9), a list (1,4,7) or one (3)"
        )
    lo = int(found.group(1))
    hi = int(found.group(2)) if found.group(2) is not None else lo
    if hi < lo:
        raise ValueError(f"seed range {part!r} runs backwards")
    if hi > MAX_SEED:
        raise ValueError(f"seed {hi} is beyond {MAX_SEED:,}")
    return range(lo, hi + 1)


def parse_seeds(text: str | int | list[int]) -> list[int]:
    """'0-9' -> [0..9]; '1,4,7' -> [1, 4, 7]; 3 -> [3]; anything malformed is a ValueError."""
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


class TaskAlias(ValueError):
    """A task id spelled otherwise than its one spelling; the message names the right one."""


def seed_id(text: str, item: str) -> int:
    """The seed a task id names, in its one spelling (`4`, never `04`, `+4` or `４`): an
    alias would count one seed as several tasks. TaskAlias names the canonical one."""
    if _SEED_ID.fullmatch(text) is not None and int(text) <= MAX_SEED:
        return int(text)
    digits = text.strip().lstrip("+")
    if digits.isdecimal() and digits.isascii() and int(digits) <= MAX_SEED:
        raise TaskAlias(f"task {item[:60]!r} is spelled {str(int(digits))!r}: one seed, one id")
    raise ValueError(f"expected a seed (a whole number 0 to {MAX_SEED:,}), got {item[:60]!r}")


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


def parse_date(text: object, name: str = "date") -> str | None:
    """`text` if it is a calendar date written YYYY-MM-DD (2026-02-31 and year 0 are not),
    None for None; ValueError otherwise (via `calendar`: a world reaches no clock)."""
    if text is None:
        return None
    found = _DATE.fullmatch(text) if isinstance(text, str) else None
    if found is None:
        raise ValueError(f"{name} must be YYYY-MM-DD, got {str(text)[:40]!r}")
    year, month, day = (int(part) for part in found.groups())
    if year == 0 or day > calendar.monthrange(year, month)[1]:
        raise ValueError(f"{name} {text!r} is not a calendar date")
    return str(text)
