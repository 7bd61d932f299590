"""Prompt-prefix stability and the harness's share of a real model's run, per world.

    python benchmarks/prefix.py [CASSETTE_DIR_OR_ROOT ...] [--logs LOG_DIR_OR_FILE ...]

From cassettes (each directory's run.json names its world): the share of a sample's input
tokens the server reused as a cached prefix (llama.cpp's `usage.prompt_tokens_details.
cached_tokens`, else `timings.cache_n`), the requests whose messages did not extend the
request before (a context trim keeps the opening messages and drops some after them; a
changed system message keeps none) and the cache misses with no message change, and
llama.cpp's prompt and generated tokens per second (its `timings`). From .eval logs of the
same runs: wall time per sample and the harness's share of it (the sample's working time
less the time its model calls took). Prints one row per world; nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from checkout_consent.cassettes import compact, store  # noqa: E402
from checkout_consent.families import world_named  # noqa: E402


@dataclass
class World:
    samples: int = 0
    requests: int = 0
    prompt: int = 0
    cached: int = 0
    reported: int = 0  # requests whose response said how much was cached
    trims: list[str] = field(default_factory=list)
    system_changes: list[str] = field(default_factory=list)
    misses: int = 0  # cached below the request before's prompt, its messages all kept
    prompt_n: int = 0
    prompt_ms: float = 0.0
    predicted_n: int = 0
    predicted_ms: float = 0.0
    walls: list[float] = field(default_factory=list)
    harness: list[float] = field(default_factory=list)


def _usage(body: dict[str, Any]) -> tuple[int, int | None]:
    usage = body.get("usage") or {}
    timings = body.get("timings") or {}
    cached = (usage.get("prompt_tokens_details") or {}).get("cached_tokens")
    if cached is None:
        cached = timings.get("cache_n")
    return int(usage.get("prompt_tokens") or 0), None if cached is None else int(cached)


def add_unit(world: World, unit: compact.Unit) -> None:
    world.samples += 1
    count, before = 0, 0  # the request before's messages and prompt tokens
    for i, entry in enumerate(unit.requests):
        try:
            body = json.loads(entry.response.body)
        except ValueError:
            continue
        prompt, cached = _usage(body if isinstance(body, dict) else {})
        world.requests += 1
        world.prompt += prompt
        world.cached += cached or 0
        world.reported += cached is not None
        where = f"{unit.unit} request {i}"
        if i and entry.keep == 0:
            world.system_changes.append(where)
        elif i and entry.keep < count:
            world.trims.append(f"{where} (kept {entry.keep} of {count} messages)")
        elif i and cached is not None and cached < min(before, prompt) * 0.9:
            world.misses += 1
        timings = body.get("timings") or {}
        world.prompt_n += int(timings.get("prompt_n") or 0)
        world.prompt_ms += float(timings.get("prompt_ms") or 0.0)
        world.predicted_n += int(timings.get("predicted_n") or 0)
        world.predicted_ms += float(timings.get("predicted_ms") or 0.0)
        count, before = entry.keep + len(entry.add), prompt


def cassette_dirs(paths: list[Path]) -> list[Path]:
    out: list[Path] = []
    for path in paths:
        found = [path] if (path / "run.json").is_file() else []
        out += found or sorted(p.parent for p in path.rglob("run.json"))
    return out


def add_cassettes(worlds: dict[str, World], paths: list[Path]) -> None:
    for directory in cassette_dirs(paths):
        manifest = store.Manifest.read(directory)
        label = world_named(manifest.family).name
        world = worlds[f"{label} ({manifest.model})"]
        for unit in store.read_units(directory).values():
            add_unit(world, unit)


def add_logs(worlds: dict[str, World], paths: list[Path]) -> None:
    from inspect_ai.event import ModelEvent
    from inspect_ai.log import read_eval_log

    files = [p for path in paths for p in ([path] if path.is_file() else path.rglob("*.eval"))]
    for path in sorted(files):
        log = read_eval_log(str(path))
        label = world_named(log.eval.task.split("/")[-1]).name
        world = worlds[f"{label} ({log.eval.model})"]
        for sample in log.samples or []:
            wall = float(sample.working_time or sample.total_time or 0.0)
            model = sum(
                float(e.working_time or 0.0) for e in sample.events if isinstance(e, ModelEvent)
            )
            if wall > 0:
                world.walls.append(wall)
                world.harness.append(max(wall - model, 0.0) / wall)


def _rate(n: int, ms: float) -> str:
    return f"{n / (ms / 1000):.1f}" if ms > 0 else "-"


def _mean(values: list[float], fmt: str) -> str:
    return format(sum(values) / len(values), fmt) if values else "-"


def row(name: str, w: World) -> str:
    share = f"{100 * w.cached / w.prompt:.1f}%" if w.prompt and w.reported else "-"
    breaks = f"{len(w.trims)} trim, {len(w.system_changes)} system, {w.misses} miss"
    cells = [name, str(w.samples), str(w.requests), str(w.prompt), share, breaks]
    cells += [_rate(w.prompt_n, w.prompt_ms), _rate(w.predicted_n, w.predicted_ms)]
    harness = _mean([100 * h for h in w.harness], ".2f")
    cells += [_mean(w.walls, ".1f"), harness + "%" if w.harness else harness]
    return "| " + " | ".join(cells) + " |"


HEADER = (
    "| world (model) | samples | requests | input tokens | reused prefix | breaks "
    "| prompt tok/s | generated tok/s | wall s/sample | harness share |\n"
    "|---|---|---|---|---|---|---|---|---|---|"
)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("cassettes", nargs="*", type=Path, help="cassette directories or roots")
    ap.add_argument("--logs", nargs="*", type=Path, default=[], help=".eval logs or folders")
    args = ap.parse_args(argv)
    worlds: dict[str, World] = defaultdict(World)
    add_cassettes(worlds, args.cassettes)
    add_logs(worlds, args.logs)
    print(HEADER)
    for name in sorted(worlds):
        print(row(name, worlds[name]))
    for name, w in sorted(worlds.items()):
        for where in [*w.system_changes, *w.trims][:5]:
            print(f"{name}: prefix broken at {where}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
