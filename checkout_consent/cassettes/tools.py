"""The hand tools of `checkout-consent cassettes`: `show` a cassette's requests readably,
and `merge` runs of one model and world recorded in parts over disjoint seeds or tasks
(their run.json otherwise equal; each unit's traffic and golden kept as recorded, so
`checkout-consent replay DIR` checks the result like any recording)."""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from checkout_consent.cassettes import compact, store
from checkout_consent.cassettes.load import confined, refuse
from checkout_consent.cassettes.match import summarise
from checkout_consent.cassettes.preflight import check_directory, is_loopback
from checkout_consent.core.task_args import parse_seeds
from checkout_consent.families import world_named


def _sse_message(body: str) -> dict[str, Any]:
    """An assistant message pieced together from a server-sent event stream."""
    text, calls = [], []
    for line in body.splitlines():
        if not line.startswith("data:"):
            continue
        try:
            event = json.loads(line[5:])
        except ValueError:
            continue
        block = event.get("content_block") if isinstance(event, dict) else None
        delta = event.get("delta") if isinstance(event, dict) else None
        if isinstance(block, dict) and block.get("type") == "tool_use":
            calls.append({"function": {"name": block.get("name", "?"), "arguments": ""}})
        if isinstance(delta, dict):
            piece = delta.get("text") or delta.get("partial_json") or ""
            if calls and "partial_json" in delta:
                calls[-1]["function"]["arguments"] += str(piece)
            else:
                text.append(str(piece))
    return {"role": "assistant", "content": "".join(text), "tool_calls": calls}


def response_line(response: compact.Response) -> str:
    """The answer in one line: the assistant's message, however the provider wrapped it."""
    if "text/event-stream" in " ".join(response.headers.get("content-type", [])):
        return summarise(_sse_message(response.body))
    try:
        data = json.loads(response.body)
    except ValueError:
        return summarise({"role": "body", "content": response.body})
    if isinstance(data, dict) and isinstance(data.get("choices"), list) and data["choices"]:
        return summarise(data["choices"][0].get("message"))
    if isinstance(data, dict) and "content" in data:
        return summarise({"role": data.get("role", "assistant"), "content": data["content"]})
    return summarise({"role": "body", "content": data})


def show(unit: compact.Unit, path: Path) -> Iterator[str]:
    """A unit's requests, readably: what was asked and what came back."""
    first = unit.frames[unit.requests[0].frame]
    yield (
        f"{path}: run unit {unit.unit}, {len(unit.requests)} request(s); model "
        f"{first.model or '?'}; tools: {', '.join(first.tools) or 'none'}"
    )
    count = 0
    for i, entry in enumerate(unit.requests):
        frame = unit.frames[entry.frame]
        count = entry.keep + len(entry.add)
        changed = "" if frame == first else f" model {frame.model}, {len(frame.tools)} tools;"
        yield (
            f"#{i} {entry.method} {entry.uri}:{changed} {count} message(s), "
            f"{len(entry.add)} new; digest {entry.digest[:16]}"
        )
        yield f"    asked:  {entry.last}"
        yield f"    answer: {entry.response.status} {response_line(entry.response)}"


def cassette_paths(path: Path) -> list[Path]:
    """The cassette files a path names: the file itself, or that of a cassette directory."""
    if path.is_dir():  # a symlinked one is refused by `confined`
        return [p for p in confined(path) if store.kind(p) == store.CASSETTE]
    if store.kind(path) != store.CASSETTE:
        raise refuse(path, f"is not a cassette ({store.CASSETTE}) nor a directory")
    return [path]


def seeds_text(seeds: list[int]) -> str:
    """Sorted seeds as `-T seeds=` reads them: `0-3`, or `0-1,5` for several runs."""
    runs: list[list[int]] = []
    for s in sorted(seeds):
        if runs and s == runs[-1][-1] + 1:
            runs[-1].append(s)
        else:
            runs.append([s])
    return ",".join(f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs)


SELECTORS = ("seeds", "tasks", "task")  # the task arguments that pick which tasks a run plays


def _selector(part: Path, manifest: store.Manifest) -> str:
    found = [k for k in SELECTORS if k in manifest.task_args]
    if len(found) != 1:
        raise refuse(part, "run.json names no seeds or tasks: only runs over tasks are merged")
    return found[0]


_PORT = re.compile(r"--port [0-9]+")


def _but(manifest: store.Manifest, key: str) -> store.Manifest:
    """The manifest without its tasks or a local server's port (parts may use different ports)."""
    args = {k: v for k, v in manifest.task_args.items() if k != key}
    base_url, server = manifest.base_url, manifest.server
    if base_url is not None and is_loopback(base_url):
        split = urlsplit(base_url)
        base_url = split._replace(netloc=split.hostname or "").geturl()
    if server is not None and isinstance(server.get("flags"), str):
        server = {**server, "flags": _PORT.sub("--port -", str(server["flags"]))}
    return dataclasses.replace(manifest, task_args=args, base_url=base_url, server=server)


def _union(manifest: store.Manifest, key: str, picked: list[str]) -> dict[str, Any]:
    """The merged task arguments, written as the public set writes them where they are it."""
    world = world_named(manifest.family)
    public = world.dataset.tasks()
    args = dict(manifest.task_args)
    if sorted(picked) == sorted(public) and key in world.dataset.public_args:
        args[key] = world.dataset.public_args[key]
    elif sorted(picked) == sorted(public):
        del args[key]  # the public set passes no argument for its tasks
    elif key == "seeds":
        args[key] = seeds_text([int(s) for s in picked])
    else:
        order = {t: i for i, t in enumerate(public)}
        args[key] = ",".join(sorted(picked, key=lambda t: (order.get(t, len(order)), t)))
    return args


def merge(parts: list[Path], out: Path) -> store.Manifest:
    """Write the merged directory `out` (new or empty) from `parts`; its run.json. Every
    refusal is one line naming the part, before anything is written."""
    if len(parts) < 2:
        raise ValueError("merge needs at least two cassette directories")
    if out.is_symlink() or (out.exists() and any(out.iterdir())):
        raise refuse(out, "exists and is not empty (merge writes a new directory)")
    manifests = [check_directory(part) for part in parts]
    first = manifests[0]
    key = _selector(parts[0], first)
    units: dict[str, compact.Unit] = {}
    goldens: dict[str, dict] = {}
    picked: list[str] = []
    for part, manifest in zip(parts, manifests, strict=True):
        if _selector(part, manifest) != key or _but(manifest, key) != _but(first, key):
            raise refuse(part, f"run.json differs from {parts[0]}'s beyond its {key}")
        value = str(manifest.task_args[key])
        if key == "seeds":
            mine = [str(s) for s in parse_seeds(value)]
        else:
            mine = [t.strip() for t in value.split(",") if t.strip()]
        if both := sorted(set(mine) & set(picked)):
            raise refuse(
                part, f"plays {key.removesuffix('s')} {both[0]} again (parts must not overlap)"
            )
        picked += mine
        for name, unit in store.read_units(part).items():
            if name in units:
                raise refuse(part, f"holds run unit {name!r} again")
            units[name] = unit
        goldens |= store.read_goldens(part)
    out.mkdir(parents=True, exist_ok=True)
    merged = dataclasses.replace(first, task_args=_union(first, key, picked))
    store.write_cassette(out, list(units.values()))
    store.write_goldens(out, goldens)
    merged.write(out)
    return merged
