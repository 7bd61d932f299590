"""Seed lists from the command line: `0-9`, `1,4,7`, `3`."""

from __future__ import annotations


def parse_seeds(text: str | int | list[int]) -> list[int]:
    """'0-9' -> [0..9]; '1,4,7' -> [1, 4, 7]; 3 -> [3]. Duplicates are refused."""
    if isinstance(text, int):
        return [text]
    if isinstance(text, list):
        return [int(s) for s in text]
    seeds: list[int] = []
    for part in str(text).split(","):
        part = part.strip()
        if "-" in part[1:]:
            lo, hi = part.split("-", 1)
            if int(hi) < int(lo):
                raise ValueError(f"seed range {part!r} runs backwards")
            seeds.extend(range(int(lo), int(hi) + 1))
        elif part:
            seeds.append(int(part))
    if not seeds:
        raise ValueError(f"no seeds in {text!r}")
    if len(set(seeds)) != len(seeds):
        raise ValueError(f"seed list {text!r} repeats a seed")
    return seeds
