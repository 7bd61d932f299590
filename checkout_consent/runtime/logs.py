"""Reading Inspect's .eval logs: the log itself, and the raw members of its zip."""

from __future__ import annotations

import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from checkout_consent.runtime.compat import enable_zstd_zip


def read_log(path: str | Path) -> Any:
    """The EvalLog at `path` (samples included)."""
    from inspect_ai.log import read_eval_log

    return read_eval_log(str(path))


def read_header(path: str | Path) -> Any:
    """The EvalLog header at `path` (no samples)."""
    from inspect_ai.log import read_eval_log

    return read_eval_log(str(path), header_only=True)


def zip_members(path: Path) -> Iterator[tuple[str, bytes]]:
    """(name, bytes) of every member of an .eval log's zip."""
    enable_zstd_zip()
    with zipfile.ZipFile(path) as archive:
        for member in archive.namelist():
            yield member, archive.read(member)


def zip_names(path: Path) -> list[str]:
    """The member names of an .eval log's zip (nothing decompressed)."""
    enable_zstd_zip()
    with zipfile.ZipFile(path) as archive:
        return archive.namelist()


def local_path(location: str) -> Path:
    """A log's location (a path, or the `file:` URI Inspect gives a reused log) as a path."""
    from urllib.parse import unquote, urlparse

    return (
        Path(unquote(urlparse(location).path)) if location.startswith("file:") else Path(location)
    )
