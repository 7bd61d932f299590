"""Where cassettes live and how they are read and written.

    cassettes/<family>/<model-slug>/run.json              how the run was made (replay reads it)
    cassettes/<family>/<model-slug>/<unit>.yaml.gz        one cassette per run unit
    cassettes/<family>/<model-slug>/<unit>.golden.json    that unit's golden score record

A run unit is one (sample, epoch): `<sample id>-<epoch>`. vcrpy sees one cassette per run
(the directory); this persister splits it by run unit on save and joins it on load.
Cassettes are YAML read only with the safe loader (they arrive in pull requests).
"""

from __future__ import annotations

import gzip
import json
import re
import warnings
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import yaml
from vcr.persisters.filesystem import CassetteNotFoundError
from vcr.serialize import deserialize, serialize

from checkout_consent.cassettes.match import RUN_UNIT_HEADER, header
from checkout_consent.runtime.provenance import REPO_ROOT

CASSETTE_ROOT = REPO_ROOT / "cassettes"
SUFFIX = ".yaml.gz"
GOLDEN = ".golden.json"
MANIFEST = "run.json"
UNTAGGED = "untagged"  # the unit of requests that carry no run-unit header
MAX_UNIT_BYTES = 256 * 1024 * 1024  # a cassette unpacking to more is refused (a gzip bomb)
_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_SAFE_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


class SafeYaml:
    """A vcrpy serializer that only ever uses PyYAML's safe loader and dumper."""

    @staticmethod
    def deserialize(text: str) -> Any:
        return yaml.load(text, Loader=_SAFE_LOADER)  # noqa: S506 (a safe loader)

    @staticmethod
    def serialize(data: Any) -> str:
        return yaml.dump(data, Dumper=_SAFE_DUMPER, allow_unicode=True, width=100)


@dataclass(frozen=True)
class Manifest:
    """How a cassette directory's run was made; replay repeats it exactly."""

    family: str
    model: str
    base_url: str | None
    model_args: dict[str, Any] = field(default_factory=dict)
    task_args: dict[str, Any] = field(default_factory=dict)
    epochs: int = 1
    max_connections: int | None = None
    recorded_with: dict[str, str] = field(default_factory=dict)

    def write(self, directory: Path) -> None:
        text = json.dumps(asdict(self), indent=2, sort_keys=True) + "\n"
        (directory / MANIFEST).write_text(text)

    @classmethod
    def read(cls, directory: Path) -> Manifest:
        return cls(**json.loads((directory / MANIFEST).read_text()))


def model_slug(model: str) -> str:
    """`openai/storefront-oracle` -> `openai--storefront-oracle` (a directory name)."""
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
    """Every cassette directory (one holding run.json) at or under the given paths."""
    found: set[Path] = set()
    for p in paths:
        if (p / MANIFEST).is_file():
            found.add(p)
        found.update(m.parent for m in p.rglob(MANIFEST))
    return sorted(found)


def read_unit(path: Path) -> bytes:
    """A gzipped unit cassette unpacked, refusing one that unpacks beyond MAX_UNIT_BYTES."""
    with gzip.open(path, "rb") as f:
        data = f.read(MAX_UNIT_BYTES + 1)
    if len(data) > MAX_UNIT_BYTES:
        raise ValueError(f"{path} unpacks to more than {MAX_UNIT_BYTES} bytes; refused")
    return data


class UnitPersister:
    """vcrpy persister: a cassette path is a directory of per-run-unit files."""

    @staticmethod
    def load_cassette(cassette_path: str | Path, serializer: Any) -> tuple[list, list]:
        files = unit_files(Path(cassette_path))
        if not files:
            raise CassetteNotFoundError(f"no cassette files in {cassette_path}")
        requests: list[Any] = []
        responses: list[Any] = []
        for path in files:
            reqs, resps = deserialize(read_unit(path).decode(), serializer)[:2]
            requests += reqs
            responses += resps
        return requests, responses

    @staticmethod
    def save_cassette(cassette_path: str | Path, cassette_dict: dict[str, Any],
                      serializer: Any) -> None:
        directory = Path(cassette_path)
        directory.mkdir(parents=True, exist_ok=True)
        units: dict[str, dict[str, list]] = {}
        for req, resp in zip(cassette_dict["requests"], cassette_dict["responses"], strict=True):
            unit = units.setdefault(header(req, RUN_UNIT_HEADER) or UNTAGGED,
                                    {"requests": [], "responses": []})
            unit["requests"].append(req)
            unit["responses"].append(resp)
        if UNTAGGED in units:
            warnings.warn(f"{cassette_path}: {len(units[UNTAGGED]['requests'])} request(s) had "
                          f"no {RUN_UNIT_HEADER} header (a solver not using runtime.loop?); with "
                          "several samples at once their replay order is not guaranteed",
                          stacklevel=2)
        for name, unit in units.items():
            packed = gzip.compress(serialize(unit, serializer).encode(), mtime=0)
            (directory / f"{unit_stem(name)}{SUFFIX}").write_bytes(packed)


def write_goldens(directory: Path, records: dict[str, dict[str, Any]]) -> None:
    for unit, record in records.items():
        text = json.dumps(record, indent=2, sort_keys=True) + "\n"
        (directory / f"{unit_stem(unit)}{GOLDEN}").write_text(text)


def read_goldens(directory: Path) -> dict[str, dict[str, Any]]:
    return {unit_name(p): json.loads(p.read_text()) for p in sorted(directory.glob("*" + GOLDEN))}


def clear(directory: Path) -> None:
    """Remove a directory's cassettes and goldens before it is recorded afresh."""
    for path in [*unit_files(directory), *directory.glob("*" + GOLDEN)]:
        path.unlink()
