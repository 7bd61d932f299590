"""Reading and rewriting cassettes by hand: a cassette's requests as lines a reviewer reads
(`checkout-consent cassettes show`), and a directory of the legacy YAML format rewritten
compactly (`checkout-consent cassettes convert`)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

from checkout_consent.cassettes import compact, store
from checkout_consent.cassettes.digest import summarise
from checkout_consent.cassettes.load import confined, refuse
from checkout_consent.cassettes.preflight import check_directory


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
    """A unit's requests, readably: what was asked (model, tools, the last message) and
    what came back."""
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
    """The cassette files a path names: the file itself, or those of a cassette directory."""
    if path.is_dir() and not path.is_symlink():
        return [p for p in confined(path) if store.is_cassette_file(p)]
    if not store.is_cassette_file(path):
        raise refuse(path, f"is not a cassette ({store.CASSETTE}, *.yaml.gz) nor a directory")
    return [path]


class Converted(NamedTuple):
    directory: Path
    units: int
    bytes_before: int
    bytes_after: int
    goldens: int = 0  # plain goldens gzipped


def convert(directory: Path) -> Converted:
    """Rewrite a cassette directory's legacy units into its compact cassette and its plain
    goldens into gzipped ones (each read back and compared before the legacy files are
    removed); what is already compact is kept as it is."""
    check_directory(directory)
    goldens = store.convert_goldens(directory)
    legacy = [p for p in store.cassette_files(directory) if p.name.endswith(store.LEGACY_SUFFIX)]
    if not legacy:
        return Converted(directory, 0, 0, 0, goldens)
    units = store.read_units(directory)  # both formats; a unit held twice is refused
    target = directory / store.CASSETTE
    before = sum(p.stat().st_size for p in [*legacy, target] if p.exists())
    store.write_cassette(directory, list(units.values()))
    if {u.unit: u for u in store.read_compact(target)} != units:
        raise refuse(target, "did not read back the same once converted")
    for path in legacy:
        path.unlink()
    return Converted(directory, len(legacy), before, target.stat().st_size, goldens)
