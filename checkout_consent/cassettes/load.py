"""Reading a cassette directory that a stranger sent: bounded, confined, and refused in one
line naming the file. Only regular files directly in the directory are read, never through
a symlink (`runtime.untrusted`); gzip unpacks to at most its reader's cap; JSON is parsed
from bounded bytes, bad UTF-8, JSON or nesting refused."""

from __future__ import annotations

import gzip
import io
import json
import zlib
from pathlib import Path
from typing import Any

from checkout_consent.runtime import untrusted
from checkout_consent.runtime.runner import RunFailed

MAX_CASSETTE_BYTES = 256 * 1024 * 1024  # a directory's compact cassette (every unit), unpacked
MAX_JSON_BYTES = 4 * 1024 * 1024  # run.json or one golden record
MAX_FILES = 20_000  # files in one cassette directory (40 public tasks x epochs x 2 is ~200)


class CassetteRefused(RunFailed):
    """A cassette directory or file that is not what this suite writes: refused, unread."""


def refuse(path: Path, why: str) -> CassetteRefused:
    return CassetteRefused(f"{path}: {why}; refused")


def confined(directory: Path) -> list[Path]:
    """The regular files directly in `directory`; a link, folder or special file is refused."""
    try:
        return untrusted.files(directory, max_entries=MAX_FILES, depth=0)
    except untrusted.Refused as err:
        raise refuse(err.path, err.why) from None


def read_bytes(path: Path, limit: int) -> bytes:
    """A regular file's bytes (never through a link), refusing more than `limit`."""
    try:
        return untrusted.read_bytes(path, limit)
    except untrusted.Refused as err:
        raise refuse(err.path, err.why) from None


def read_gzip(path: Path, limit: int) -> bytes:
    """A gzipped file unpacked; corrupt, truncated or oversized gzip is refused."""
    packed = read_bytes(path, limit)
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(packed), mode="rb") as f:
            data = f.read(limit + 1)
    except (OSError, EOFError, zlib.error) as err:
        raise refuse(path, f"is not a whole gzip file ({type(err).__name__})") from None
    if len(data) > limit:
        raise refuse(path, f"unpacks to more than {limit} bytes")
    return data


def parse_json(path: Path, data: bytes) -> Any:
    """JSON from a file's bytes; bad UTF-8, bad JSON or absurd nesting is refused."""
    try:
        return json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as err:
        raise refuse(path, f"is not valid JSON ({type(err).__name__})") from None


def read_json(path: Path, limit: int = MAX_JSON_BYTES) -> Any:
    """A JSON file (bounded, no links), refused in one line if it is not JSON."""
    return parse_json(path, read_bytes(path, limit))
