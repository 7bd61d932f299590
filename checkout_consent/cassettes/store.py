"""A cassette directory, `cassettes/<world>/<model-slug>/`: run.json, cassette.json.gz and
`<unit>.golden.json.gz` (a run unit is `<sample id>-<epoch>`). Cassettes arrive in pull
requests: every file is read through `load.py` (no symlinks, nothing outside the directory,
bounded sizes), the cassette and run.json validated strictly; a legacy format is refused by
name, unread."""

from __future__ import annotations

import gzip
import json
import re
from dataclasses import asdict, field
from pathlib import Path
from typing import Annotated, Any

from pydantic import ConfigDict, Field, ValidationError, field_validator
from pydantic.dataclasses import dataclass

from checkout_consent.cassettes import compact
from checkout_consent.cassettes.load import (
    MAX_CASSETTE_BYTES,
    MAX_JSON_BYTES,
    confined,
    parse_json,
    read_gzip,
    read_json,
    refuse,
)
from checkout_consent.runtime import untrusted
from checkout_consent.runtime.provenance import REPO_ROOT

CASSETTE_ROOT = REPO_ROOT / "cassettes"
MAX_WALKED = 100_000  # files and folders under the paths searched for run.json
MANIFEST = "run.json"
CASSETTE = "cassette.json.gz"  # the compact cassette of a run directory (compact.py)
GOLDEN = ".golden.json.gz"  # a unit's golden record, gzipped (a month's ledger is large)
# The formats before these, by file name: refused in one line naming the format, unread.
LEGACY = {
    ".yaml.gz": "a legacy vcrpy YAML cassette (*.yaml.gz, one per run unit)",
    ".golden.json": "a legacy plain-JSON golden record (*.golden.json)",
}
LEGACY_ADVICE = (
    "record the run again, or convert the directory with `checkout-consent cassettes "
    "convert` of an earlier checkout (commit fad7883 has it)"
)
# Model args that carry credentials or reach outside the run: a recording uses them, run.json
# never holds them (a run.json that does is refused).
SECRET_MODEL_ARGS = frozenset(
    {
        "api_key",
        "organization",
        "project",
        "default_headers",
        "http_client",
        "azure_ad_token",
        "auth_token",
        "base_url",
        "config",
        "credentials",
        "service_account_file",
    }
)
Text = Annotated[str, Field(max_length=500)]
Scalar = bool | int | float | Text | None
Key = Annotated[str, Field(max_length=80)]
MODEL_PATTERN = r"^[A-Za-z0-9._-]+(/[A-Za-z0-9._:@+-]+)+$"


@dataclass(frozen=True, config=ConfigDict(extra="forbid", strict=True))
class Manifest:
    """`run.json`: how a cassette directory's run was made. Replay repeats it exactly, so it
    is validated strictly (unknown fields forbidden, no type coercion, bounded values)
    before anything runs: it may come from a stranger."""

    family: Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]{0,40}$")]
    model: Annotated[str, Field(pattern=MODEL_PATTERN, max_length=200)]
    base_url: Annotated[str, Field(pattern=r"^https?://[^\s]+$", max_length=300)] | None
    model_args: dict[Annotated[str, Field(max_length=80)], Scalar] = field(default_factory=dict)
    task_args: dict[Annotated[str, Field(max_length=80)], Text | int | bool] = field(
        default_factory=dict
    )
    epochs: Annotated[int, Field(ge=1, le=100)] = 1
    max_connections: Annotated[int, Field(ge=1, le=1000)] | None = None
    recorded_with: dict[Annotated[str, Field(max_length=80)], Text] = field(default_factory=dict)
    # a local server's setting (runtime/local_server.py: chat template, sampling, slots),
    # as the server reported it at record time; absent for hosted providers and controls
    server: dict[Key, Scalar | dict[Key, Scalar]] | None = None

    @field_validator("task_args")
    @classmethod
    def _no_paths(cls, value: dict[str, Any]) -> dict[str, Any]:
        for key, arg in value.items():
            if isinstance(arg, str) and ("/" in arg or "\\" in arg or ".." in arg or "\0" in arg):
                raise ValueError(
                    f"task arg {key!r} looks like a path; replay reads only the packaged tasks"
                )
        return value

    def write(self, directory: Path) -> None:
        fields = {k: v for k, v in asdict(self).items() if not (k == "server" and v is None)}
        text = json.dumps(fields, indent=2, sort_keys=True) + "\n"
        (directory / MANIFEST).write_text(text)

    @classmethod
    def read(cls, directory: Path) -> Manifest:
        """The directory's run.json, validated; anything else is refused in one line."""
        path = directory / MANIFEST
        data = read_json(path)
        if not isinstance(data, dict):
            raise refuse(path, "is not a JSON object")
        manifest = validated(path, data)
        bad = sorted(set(manifest.model_args) & SECRET_MODEL_ARGS)
        if bad:
            raise refuse(path, f"model_args {bad[0]!r} never belongs in run.json")
        return manifest


def validated(where: Path | str, data: dict[str, Any]) -> Manifest:
    """A Manifest from plain values, or one line saying what is wrong with them."""
    try:
        return Manifest(**data)
    except ValidationError as err:
        first = err.errors()[0]
        field_name = ".".join(str(p) for p in first["loc"])[:80] or "run.json"
        raise refuse(
            Path(where), f"{field_name}: {first['msg']} ({err.error_count()} problem(s))"
        ) from None
    except TypeError as err:  # a field that does not exist, or a non-string key
        raise refuse(Path(where), f"is not a run.json ({str(err)[:120]})") from None


def model_slug(model: str) -> str:
    """`openai/<family>-oracle` -> `openai--<family>-oracle` (a directory name)."""
    return re.sub(r"[^A-Za-z0-9._-]+", "-", model.replace("/", "--"))


def unit_stem(unit: str) -> str:
    """A run unit as a file name (sample ids may hold any character)."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", unit)


def run_dir(world: str, model: str, root: Path = CASSETTE_ROOT) -> Path:
    """Where a run of `world` by `model` is recorded."""
    return root.joinpath(*world.split("/")) / model_slug(model)


def _legacy(path: Path) -> str | None:
    return next((what for end, what in LEGACY.items() if path.name.endswith(end)), None)


def kind(path: Path) -> str | None:
    """What a file of a cassette directory is (None: no such file); a legacy format is refused."""
    legacy = _legacy(path)
    if legacy:
        raise refuse(path, f"is {legacy}, a format this suite no longer reads: {LEGACY_ADVICE}")
    if path.name in (MANIFEST, CASSETTE):
        return path.name
    return GOLDEN if path.name.endswith(GOLDEN) else None


def files(directory: Path) -> list[Path]:
    """Every file of a cassette directory, each one this suite writes; any other is refused."""
    out = confined(directory)
    for path in out:
        if kind(path) is None:
            raise refuse(
                path,
                f"is not a file a cassette directory holds ({MANIFEST}, {CASSETTE}, *{GOLDEN})",
            )
    return out


def cassette_files(directory: Path) -> list[Path]:
    """The file holding a directory's traffic, if it has one."""
    return [directory / CASSETTE] if (directory / CASSETTE).is_file() else []


def read_compact(path: Path) -> list[compact.Unit]:
    """The units of a compact cassette file (bounded, checked, refused in one line)."""
    data = read_gzip(path, MAX_CASSETTE_BYTES)
    try:
        return compact.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise refuse(path, "is not UTF-8 text") from None
    except compact.Malformed as err:
        raise refuse(path, str(err)) from None


def read_units(directory: Path) -> dict[str, compact.Unit]:
    """Every recorded unit of a cassette directory, by name (bounded, checked)."""
    paths = [path for path in confined(directory) if kind(path) == CASSETTE]
    return {unit.unit: unit for path in paths for unit in read_compact(path)}


def write_cassette(directory: Path, units: list[compact.Unit]) -> Path:
    """The directory's compact cassette, its units sorted by name (byte-stable)."""
    path = directory / CASSETTE
    text = compact.dumps(sorted(units, key=lambda u: u.unit))
    path.write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))
    return path


def write_goldens(directory: Path, records: dict[str, dict[str, Any]]) -> None:
    """One gzipped, indented JSON file per unit, byte-stable (no time or name in the header)."""
    for unit, record in records.items():
        text = json.dumps(record, indent=2, sort_keys=True) + "\n"
        packed = gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0)
        (directory / f"{unit_stem(unit)}{GOLDEN}").write_bytes(packed)


def read_golden(path: Path) -> dict[str, Any]:
    """One golden record, bounded, never through a link."""
    record = parse_json(path, read_gzip(path, MAX_JSON_BYTES))
    if not isinstance(record, dict):
        raise refuse(path, "is not a JSON object")
    return record


def read_goldens(directory: Path) -> dict[str, dict[str, Any]]:
    """Every golden record of the directory (bounded JSON objects, no links followed)."""
    return {
        path.name.removesuffix(GOLDEN): read_golden(path)
        for path in confined(directory)
        if kind(path) == GOLDEN
    }


def run_dirs(paths: list[Path]) -> list[Path]:
    """Every cassette directory at or under `paths`, never through a symlinked folder."""
    found: set[Path] = set()
    for p in paths:
        try:
            entries = untrusted.walk(p, max_entries=MAX_WALKED) if p.is_dir() else []
        except untrusted.Refused as err:
            raise refuse(err.path, err.why) from None
        found |= {e.path.parent for e in entries if e.path.name == MANIFEST and not e.folder}
    return sorted(found)


def clear(directory: Path) -> None:
    """Remove a directory's cassette, goldens and legacy files before recording afresh."""
    for path in directory.iterdir():
        if _legacy(path) or kind(path) in (CASSETTE, GOLDEN):
            path.unlink()
