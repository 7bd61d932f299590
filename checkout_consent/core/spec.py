"""Reading scenario specs from tasks/<family>/ and seed lists from the command line."""

from __future__ import annotations

from typing import Any

import yaml

from checkout_consent.core.version import tasks_dir


def load_yaml(family: str, name: str) -> dict[str, Any]:
    """tasks/<family>/<name>.yaml as a mapping, loaded with the safe loader."""
    path = tasks_dir(family) / f"{name}.yaml"
    if not path.is_file():
        known = sorted(p.stem for p in tasks_dir(family).glob("*.yaml"))
        raise FileNotFoundError(f"no {family} scenario {name!r}; known: {', '.join(known)}")
    data = yaml.safe_load(path.read_text())
    if not isinstance(data, dict):
        raise ValueError(f"{path} does not hold a mapping")
    return data


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
