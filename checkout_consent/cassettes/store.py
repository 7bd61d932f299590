"""Where cassettes live and how they are read and written.

    cassettes/<family>/<model-slug>/run.json              how the run was made (replay reads it)
    cassettes/<family>/<model-slug>/<unit>.yaml.gz        one cassette per run unit
    cassettes/<family>/<model-slug>/<unit>.golden.json    that unit's golden score record

A run unit is one (sample, epoch): `<sample id>-<epoch>`. vcrpy sees one cassette per run
(the directory); this persister splits it by run unit on save and joins it on load.
Cassettes arrive in pull requests: every file is read through `cassettes/load.py` (no
symlinks, nothing outside the directory, bounded sizes and YAML, the safe loader only) and
run.json through `cassettes/manifest.py` (validated strictly).
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
from vcr.serialize import serialize
from vcr.serializers import compat

from checkout_consent.cassettes.load import (
    MAX_RUN_BYTES,
    MAX_UNIT_BYTES,
    confined,
    parse_unit,
    read_json,
    read_unit,
    refuse,
)
from checkout_consent.cassettes.manifest import MANIFEST, Manifest
from checkout_consent.cassettes.match import RUN_UNIT_HEADER, header
from checkout_consent.runtime.provenance import REPO_ROOT

__all__ = ["MANIFEST", "MAX_UNIT_BYTES", "Manifest", "read_unit"]

CASSETTE_ROOT = REPO_ROOT / "cassettes"
SUFFIX = ".yaml.gz"
GOLDEN = ".golden.json"
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


def run_dir(family: str, model: str, root: Path = CASSETTE_ROOT) -> Path:
    return root / family / model_slug(model)


def unit_files(directory: Path) -> list[Path]:
    return sorted(directory.glob("*" + SUFFIX))


def unit_name(path: Path) -> str:
    return path.name.removesuffix(SUFFIX).removesuffix(GOLDEN)


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
    """vcrpy persister: a cassette path is a directory of per-run-unit files."""

    @staticmethod
    def load_cassette(cassette_path: str | Path, serializer: Any) -> tuple[list, list]:
        files = [p for p in confined(Path(cassette_path)) if p.name.endswith(SUFFIX)]
        if not files:
            raise CassetteNotFoundError(f"no cassette files in {cassette_path}")
        requests: list[Any] = []
        responses: list[Any] = []
        total = 0
        for path in files:
            data = read_unit(path)
            total += len(data)
            if total > MAX_RUN_BYTES:
                raise refuse(
                    Path(cassette_path), f"unpacks to more than {MAX_RUN_BYTES} bytes of cassettes"
                )
            for item in parse_unit(path, data):
                requests.append(Request._from_dict(item["request"]))
                responses.append(compat.convert_to_bytes(item["response"]))
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
        for name, unit in units.items():
            packed = gzip.compress(serialize(unit, serializer).encode(), mtime=0)
            (directory / f"{unit_stem(name)}{SUFFIX}").write_bytes(packed)


def write_goldens(directory: Path, records: dict[str, dict[str, Any]]) -> None:
    for unit, record in records.items():
        text = json.dumps(record, indent=2, sort_keys=True) + "\n"
        (directory / f"{unit_stem(unit)}{GOLDEN}").write_text(text)


def read_goldens(directory: Path) -> dict[str, dict[str, Any]]:
    """Every golden record of the directory (bounded JSON objects, no links followed)."""
    out: dict[str, dict[str, Any]] = {}
    for path in confined(directory):
        if path.name.endswith(GOLDEN):
            record = read_json(path)
            if not isinstance(record, dict):
                raise refuse(path, "is not a JSON object")
            out[unit_name(path)] = record
    return out


def clear(directory: Path) -> None:
    """Remove a directory's cassettes and goldens before it is recorded afresh."""
    for path in [*unit_files(directory), *directory.glob("*" + GOLDEN)]:
        path.unlink()
