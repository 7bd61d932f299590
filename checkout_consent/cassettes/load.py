"""Reading a cassette directory that a stranger sent: bounded, confined, and refused in one
line naming the file.

- Only regular files directly in the directory are read; a symlink anywhere (the directory,
  a file, a folder on the way) is refused, and nothing outside the directory is opened.
- A gzipped file unpacks to at most the cap its reader names; truncated or corrupt gzip is
  refused.
- JSON is parsed from bounded bytes; bad UTF-8, bad JSON or absurd nesting is refused.
"""

from __future__ import annotations

import gzip
import io
import json
import os
import stat
import zlib
from pathlib import Path
from typing import Any

from checkout_consent.runtime.runner import RunFailed

MAX_CASSETTE_BYTES = 256 * 1024 * 1024  # a directory's compact cassette (every unit), unpacked
MAX_JSON_BYTES = 4 * 1024 * 1024  # run.json or one golden record
MAX_FILES = 20_000  # files in one cassette directory (40 public tasks x epochs x 2 is ~200)


class CassetteRefused(RunFailed):
    """A cassette directory or file that is not what this suite writes: refused, unread."""


def refuse(path: Path, why: str) -> CassetteRefused:
    return CassetteRefused(f"{path}: {why}; refused")


def _regular(path: Path) -> os.stat_result:
    """lstat of a regular file or directory; a symlink or special file is refused."""
    try:
        info = path.lstat()
    except OSError as err:
        raise refuse(path, err.strerror or "cannot be read") from None
    if stat.S_ISLNK(info.st_mode):
        raise refuse(path, "is a symlink (cassettes never follow links)")
    if not (stat.S_ISREG(info.st_mode) or stat.S_ISDIR(info.st_mode)):
        raise refuse(path, "is not a regular file")
    return info


def confined(directory: Path) -> list[Path]:
    """The regular files directly in `directory` (itself no symlink); a symlink, a folder
    or a special file inside it is refused."""
    if not stat.S_ISDIR(_regular(directory).st_mode):
        raise refuse(directory, "is not a directory")
    files = []
    for count, entry in enumerate(sorted(directory.iterdir())):
        if count >= MAX_FILES:
            raise refuse(directory, f"holds more than {MAX_FILES} files")
        if stat.S_ISDIR(_regular(entry).st_mode):
            raise refuse(entry, "a cassette directory holds no folders")
        files.append(entry)
    return files


def read_bytes(path: Path, limit: int) -> bytes:
    """A regular file's bytes (never through a link), refusing more than `limit`."""
    info = _regular(path)
    if not stat.S_ISREG(info.st_mode):
        raise refuse(path, "is not a regular file")
    if info.st_size > limit:
        raise refuse(path, f"is larger than {limit} bytes")
    try:  # O_NOFOLLOW: a file swapped for a link after the check is still not followed
        with os.fdopen(os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)), "rb") as f:
            return f.read(limit + 1)
    except OSError as err:
        raise refuse(path, err.strerror or "cannot be read") from None


def read_gzip(path: Path, limit: int) -> bytes:
    """A gzipped file unpacked; corrupt, truncated or oversized gzip (packed or unpacked
    beyond `limit`) is refused."""
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
