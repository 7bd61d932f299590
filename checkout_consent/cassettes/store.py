"""Where cassettes live and how they are read and written.

    cassettes/<world>/<model-slug>/run.json              how the run was made (replay reads it)
    cassettes/<world>/<model-slug>/cassette.json.gz      the compact cassette: every run unit
    cassettes/<world>/<model-slug>/<unit>.golden.json    each unit's golden score record

`<world>` is the family, or `family/variant` for a variant's runs. A run unit is one
(sample, epoch): `<sample id>-<epoch>`. vcrpy sees one cassette per run (the directory);
this persister groups it by run unit on save (`compact.py`) and reads the units back on
load. It still reads the format before it, vcrpy's YAML gzipped, one `<unit>.yaml.gz` per
unit: `checkout-consent cassettes convert` rewrites such a directory compactly. Cassettes
arrive in pull requests: every file is read through `cassettes/load.py` (no symlinks,
nothing outside the directory, bounded sizes, YAML by the safe loader only, compact JSON
validated strictly) and run.json through `cassettes/manifest.py` (validated strictly).
"""

from __future__ import annotations

import gzip
import json
import os
import re
import warnings
from pathlib import Path
from typing import Any

import yaml
from vcr.persisters.filesystem import CassetteNotFoundError
from vcr.request import Request
from vcr.serializers import compat

from checkout_consent.cassettes import compact
from checkout_consent.cassettes.load import (
    MAX_CASSETTE_BYTES,
    MAX_JSON_BYTES,
    MAX_RUN_BYTES,
    MAX_UNIT_BYTES,
    confined,
    parse_unit,
    read_json,
    read_unit,
    refuse,
)
from checkout_consent.cassettes.manifest import MANIFEST, Manifest
from checkout_consent.cassettes.match import DIGEST, RUN_UNIT_HEADER, SUMMARY, header
from checkout_consent.runtime.provenance import REPO_ROOT

__all__ = ["MANIFEST", "MAX_UNIT_BYTES", "Manifest", "read_unit"]

CASSETTE_ROOT = REPO_ROOT / "cassettes"
CASSETTE = "cassette.json.gz"  # the compact cassette of a run directory (compact.py)
LEGACY_SUFFIX = ".yaml.gz"  # a unit in vcrpy's YAML: still read; `cassettes convert` rewrites it
GOLDEN = ".golden.json.gz"  # a unit's golden record, gzipped (a month's ledger is large)
LEGACY_GOLDEN = ".golden.json"  # still read; `cassettes convert` gzips it
UNTAGGED = "untagged"  # the unit of requests that carry no run-unit header
_SAFE_DUMPER: Any = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


class _NoAliasDumper(_SAFE_DUMPER):  # type: ignore[misc, valid-type]
    """The safe dumper, never writing anchors or aliases (replay refuses alias bombs)."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


class SafeYaml:
    """A vcrpy serializer: PyYAML's safe loader (bounded, see load.py) and safe dumper."""

    @staticmethod
    def deserialize(text: str) -> Any:
        from checkout_consent.cassettes.load import load_yaml

        return load_yaml(Path("<cassette>"), text)

    @staticmethod
    def serialize(data: Any) -> str:
        return yaml.dump(data, Dumper=_NoAliasDumper, allow_unicode=True, width=100)


def model_slug(model: str) -> str:
    """`openai/<family>-oracle` -> `openai--<family>-oracle` (a directory name)."""
    return re.sub(r"[^A-Za-z0-9._-]+", "-", model.replace("/", "--"))


def unit_stem(unit: str) -> str:
    """A run unit as a file name (sample ids may hold any character)."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", unit)


def run_dir(world: str, model: str, root: Path = CASSETTE_ROOT) -> Path:
    """Where a run of `world` (a family, or `family/variant`) by `model` is recorded."""
    return root.joinpath(*world.split("/")) / model_slug(model)


def is_cassette_file(path: Path) -> bool:
    return path.name == CASSETTE or path.name.endswith(LEGACY_SUFFIX)


def cassette_files(directory: Path) -> list[Path]:
    """The files holding a directory's traffic: its compact cassette, legacy unit files."""
    return sorted(p for p in directory.glob("*.gz") if is_cassette_file(p))


def unit_name(path: Path) -> str:
    return path.name.removesuffix(LEGACY_SUFFIX).removesuffix(GOLDEN).removesuffix(LEGACY_GOLDEN)


def is_golden(path: Path) -> bool:
    return path.name.endswith((GOLDEN, LEGACY_GOLDEN))


def cap(path: Path) -> int:
    """How far a cassette file may unpack: a whole run's compact one, or a legacy unit."""
    return MAX_CASSETTE_BYTES if path.name == CASSETTE else MAX_UNIT_BYTES


def read_compact(path: Path, data: bytes | None = None) -> list[compact.Unit]:
    """The units of a cassette file, either format (bounded, checked, refused in one line)."""
    data = read_unit(path, cap(path)) if data is None else data
    if path.name.endswith(LEGACY_SUFFIX):
        items = parse_unit(path, data)
        pairs = [
            (Request._from_dict(i["request"]), compat.convert_to_bytes(i["response"]))
            for i in items
        ]
        name = header(pairs[0][0], RUN_UNIT_HEADER) or unit_name(path)
        try:
            return [compact.pack(name, pairs)]
        except (compact.Malformed, ValueError) as err:
            raise refuse(path, str(err).splitlines()[0][:200]) from None
    try:
        return compact.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise refuse(path, "is not UTF-8 text") from None
    except compact.Malformed as err:
        raise refuse(path, str(err)) from None


def read_units(directory: Path) -> dict[str, compact.Unit]:
    """Every recorded unit of a cassette directory, by name (each once, bounded in total)."""
    files = [p for p in confined(directory) if is_cassette_file(p)]
    out: dict[str, compact.Unit] = {}
    total = 0
    for path in files:
        data = read_unit(path, cap(path))
        total += len(data)
        if total > MAX_RUN_BYTES:
            raise refuse(directory, f"unpacks to more than {MAX_RUN_BYTES} bytes of cassettes")
        for unit in read_compact(path, data):
            if unit.unit in out:
                raise refuse(path, f"holds run unit {unit.unit[:80]!r} again (two formats?)")
            out[unit.unit] = unit
    return out


def write_cassette(directory: Path, units: list[compact.Unit]) -> Path:
    """The directory's compact cassette, its units sorted by name (byte-stable)."""
    path = directory / CASSETTE
    text = compact.dumps(sorted(units, key=lambda u: u.unit))
    path.write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))
    return path


def played(unit: compact.Unit) -> tuple[list[Request], list[dict[str, Any]]]:
    """What vcrpy replays of a unit: a bodiless request carrying its digest, and the
    response as vcrpy keeps one."""
    requests, responses = [], []
    for entry in unit.requests:
        request = Request(
            entry.method, entry.uri, b"", {**entry.headers, RUN_UNIT_HEADER: unit.unit}
        )
        request.__dict__[DIGEST] = entry.digest
        request.__dict__[SUMMARY] = entry.last
        requests.append(request)
        r = entry.response
        responses.append(
            {
                "status": {"code": r.status, "message": r.reason},
                "headers": {k: list(v) for k, v in r.headers.items()},
                "body": {"string": r.body.encode("utf-8")},
            }
        )
    return requests, responses


def run_dirs(paths: list[Path]) -> list[Path]:
    """Every cassette directory (one holding run.json) at or under the given paths, never
    through a symlinked folder (a symlinked run.json still names its directory: replay
    then refuses it)."""
    found: set[Path] = set()
    for p in paths:
        if p.is_symlink():
            raise refuse(p, "is a symlink (cassettes never follow links)")
        for top, _dirs, files in os.walk(p, followlinks=False):
            if MANIFEST in files:
                found.add(Path(top))
    return sorted(found)


class UnitPersister:
    """vcrpy persister: a cassette path is a directory; its traffic is grouped by run unit."""

    @staticmethod
    def load_cassette(cassette_path: str | Path, serializer: Any) -> tuple[list, list]:
        units = read_units(Path(cassette_path))
        if not units:
            raise CassetteNotFoundError(f"no cassette files in {cassette_path}")
        requests: list[Any] = []
        responses: list[Any] = []
        for unit in units.values():
            more_requests, more_responses = played(unit)
            requests += more_requests
            responses += more_responses
        return requests, responses

    @staticmethod
    def save_cassette(
        cassette_path: str | Path, cassette_dict: dict[str, Any], serializer: Any
    ) -> None:
        directory = Path(cassette_path)
        directory.mkdir(parents=True, exist_ok=True)
        units: dict[str, dict[str, list]] = {}
        for req, resp in zip(cassette_dict["requests"], cassette_dict["responses"], strict=True):
            unit = units.setdefault(
                header(req, RUN_UNIT_HEADER) or UNTAGGED, {"requests": [], "responses": []}
            )
            unit["requests"].append(req)
            unit["responses"].append(resp)
        if UNTAGGED in units:
            warnings.warn(
                f"{cassette_path}: {len(units[UNTAGGED]['requests'])} request(s) had "
                f"no {RUN_UNIT_HEADER} header (a solver not using runtime.loop?); with "
                "several samples at once their replay order is not guaranteed",
                stacklevel=2,
            )
        packed = [
            compact.pack(name, list(zip(unit["requests"], unit["responses"], strict=True)))
            for name, unit in units.items()
        ]
        write_cassette(directory, packed)


def write_goldens(directory: Path, records: dict[str, dict[str, Any]]) -> None:
    """One gzipped, indented JSON file per unit (`gzip -dc FILE` reads it); byte-stable:
    the gzip header carries no time and no name."""
    for unit, record in records.items():
        text = json.dumps(record, indent=2, sort_keys=True) + "\n"
        packed = gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0)
        (directory / f"{unit_stem(unit)}{GOLDEN}").write_bytes(packed)


def read_golden(path: Path) -> dict[str, Any]:
    """One golden record (gzipped or legacy plain JSON), bounded, never through a link."""
    if path.name.endswith(GOLDEN):
        try:
            record = json.loads(read_unit(path, MAX_JSON_BYTES).decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError) as err:
            raise refuse(path, f"is not valid JSON ({type(err).__name__})") from None
    else:
        record = read_json(path)
    if not isinstance(record, dict):
        raise refuse(path, "is not a JSON object")
    return record


def read_goldens(directory: Path) -> dict[str, dict[str, Any]]:
    """Every golden record of the directory (bounded JSON objects, no links followed); a
    unit with a golden in both formats is refused."""
    out: dict[str, dict[str, Any]] = {}
    for path in confined(directory):
        if is_golden(path):
            if unit_name(path) in out:
                raise refuse(path, f"holds unit {unit_name(path)!r} a second time")
            out[unit_name(path)] = read_golden(path)
    return out


def convert_goldens(directory: Path) -> int:
    """Gzip a directory's legacy plain-JSON goldens (read back equal before the plain ones
    are removed); the number converted."""
    legacy = {p: read_golden(p) for p in confined(directory) if p.name.endswith(LEGACY_GOLDEN)}
    if not legacy:
        return 0
    records = {unit_name(p): record for p, record in legacy.items()}
    write_goldens(directory, records)
    for unit, record in records.items():
        if read_golden(directory / f"{unit_stem(unit)}{GOLDEN}") != record:
            raise refuse(directory, f"golden {unit} did not read back the same once gzipped")
    for path in legacy:
        path.unlink()
    return len(legacy)


def clear(directory: Path) -> None:
    """Remove a directory's cassettes and goldens before it is recorded afresh."""
    for path in [*cassette_files(directory), *(p for p in directory.iterdir() if is_golden(p))]:
        path.unlink()
