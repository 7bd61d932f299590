"""Reading a cassette directory that a stranger sent: bounded, confined, and refused in one
line naming the file.

- Only regular files directly in the directory are read; a symlink anywhere (the directory,
  a file, a folder on the way) is refused, and nothing outside the directory is opened.
- A unit cassette unpacks to at most MAX_UNIT_BYTES; truncated or corrupt gzip is refused.
- YAML goes through PyYAML's safe loader, after the node graph is walked with aliases
  expanded: more than MAX_YAML_NODES nodes (an alias bomb of a few hundred bytes expands
  to billions) is refused before anything is built.
- The interactions must have the shape vcrpy writes; anything else is refused by name.
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

import yaml

from checkout_consent.runtime.runner import RunFailed

MAX_UNIT_BYTES = 64 * 1024 * 1024  # one legacy unit cassette, unpacked
MAX_CASSETTE_BYTES = 256 * 1024 * 1024  # a directory's compact cassette (every unit), unpacked
MAX_JSON_BYTES = 4 * 1024 * 1024  # run.json or one golden record
MAX_FILES = 20_000  # files in one cassette directory (40 public tasks x epochs x 2 is ~200)
MAX_RUN_BYTES = 1024 * 1024 * 1024  # all units of one directory, unpacked
MAX_YAML_NODES = 100_000  # nodes of one unit, aliases expanded (a real unit: ~1,000)
_C_SAFE_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


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


def read_unit(path: Path, limit: int | None = None) -> bytes:
    """A gzipped unit cassette unpacked; corrupt, truncated or oversized gzip is refused."""
    cap = MAX_UNIT_BYTES if limit is None else limit
    packed = read_bytes(path, cap)
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(packed), mode="rb") as f:
            data = f.read(cap + 1)
    except (OSError, EOFError, zlib.error) as err:
        raise refuse(path, f"is not a whole gzip file ({type(err).__name__})") from None
    if len(data) > cap:
        raise refuse(path, f"unpacks to more than {cap} bytes")
    return data


def read_json(path: Path, limit: int = MAX_JSON_BYTES) -> Any:
    """A JSON file (bounded, no links); bad UTF-8, bad JSON or absurd nesting is refused."""
    try:
        return json.loads(read_bytes(path, limit).decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as err:
        raise refuse(path, f"is not valid JSON ({type(err).__name__})") from None


class _BoundedLoader(_C_SAFE_LOADER):  # type: ignore[misc, valid-type]
    """The safe loader, refusing a document whose node graph, aliases expanded, is huge."""

    def get_single_node(self) -> Any:
        node = super().get_single_node()
        if node is not None:
            _count_nodes(node, MAX_YAML_NODES)
        return node


class _TooManyNodes(ValueError):
    pass


def _count_nodes(root: Any, cap: int) -> None:
    """Walk the node graph as the built object would be (an alias counted at every use)."""
    stack, seen = [root], 0
    while stack:
        node = stack.pop()
        seen += 1
        if seen > cap:
            raise _TooManyNodes(f"more than {cap} YAML nodes with aliases expanded")
        if isinstance(node, yaml.MappingNode):
            stack.extend(n for pair in node.value for n in pair)
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)


def load_yaml(path: Path, text: str | bytes) -> Any:
    """A YAML document through the bounded safe loader; any failure is one line."""
    try:
        return yaml.load(text, Loader=_BoundedLoader)  # noqa: S506 (a safe loader)
    except _TooManyNodes as err:
        raise refuse(path, str(err)) from None
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark else ""
        raise refuse(path, f"is not valid cassette YAML ({type(err).__name__}{where})") from None
    except (RecursionError, MemoryError):
        raise refuse(path, "nests too deeply") from None


def _is_str_map(value: Any) -> bool:
    return isinstance(value, dict) and all(isinstance(k, str) for k in value)


def _request_ok(req: Any) -> bool:
    return (
        _is_str_map(req)
        and isinstance(req.get("method"), str)
        and isinstance(req.get("uri"), str)
        and _is_str_map(req.get("headers"))
        and isinstance(req.get("body"), str | bytes | None)
    )


def _response_ok(resp: Any) -> bool:
    if not _is_str_map(resp):
        return False
    status, body = resp.get("status"), resp.get("body")
    return (
        _is_str_map(status)
        and type(status.get("code")) is int
        and _is_str_map(resp.get("headers"))
        and _is_str_map(body)
        and isinstance(body.get("string"), str | bytes)
    )


def _interaction_problem(item: Any) -> str | None:
    if not _is_str_map(item):
        return "is not a mapping"
    if not _request_ok(item.get("request")):
        return "has no request of method, uri, headers and body"
    if not _response_ok(item.get("response")):
        return "has no response of status code, headers and body"
    return None


def check_shape(path: Path, data: Any) -> list[dict[str, Any]]:
    """The interactions of a loaded unit cassette, refusing any other shape."""
    if not _is_str_map(data) or data.get("version") != 1:
        raise refuse(path, "is not a vcrpy cassette (a mapping with version 1)")
    interactions = data.get("interactions")
    if not isinstance(interactions, list) or not interactions:
        raise refuse(path, "holds no list of interactions")
    for i, item in enumerate(interactions):
        problem = _interaction_problem(item)
        if problem:
            raise refuse(path, f"interaction {i} {problem}")
    return interactions


def load_unit(path: Path) -> list[dict[str, Any]]:
    """One unit cassette, unpacked, parsed and shape-checked."""
    return parse_unit(path, read_unit(path))


def parse_unit(path: Path, data: bytes) -> list[dict[str, Any]]:
    """The interactions of an unpacked unit cassette, parsed and shape-checked."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise refuse(path, "is not UTF-8 text") from None
    return check_shape(path, load_yaml(path, text))
