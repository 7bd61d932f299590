"""`run.json`: how a cassette directory's run was made. Replay repeats it exactly, so it is
validated strictly (pydantic, unknown fields forbidden, no type coercion, bounded values)
before anything runs: it may come from a stranger."""

from __future__ import annotations

import json
from dataclasses import asdict, field
from pathlib import Path
from typing import Annotated, Any

from pydantic import ConfigDict, Field, ValidationError, field_validator
from pydantic.dataclasses import dataclass

from checkout_consent.cassettes.load import read_json, refuse

MANIFEST = "run.json"
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
MODEL_PATTERN = r"^[A-Za-z0-9._-]+(/[A-Za-z0-9._:@+-]+)+$"


@dataclass(frozen=True, config=ConfigDict(extra="forbid", strict=True))
class Manifest:
    """How a cassette directory's run was made; replay repeats it exactly."""

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
        text = json.dumps(asdict(self), indent=2, sort_keys=True) + "\n"
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
