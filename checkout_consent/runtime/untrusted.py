"""The one reader of files and trees a stranger may have made (a saved trace, a journal, a
log, a cassette, a submission, an agent's build): a file is read only as a regular file
(no symlink, device, fifo or socket) within its cap, opened with O_NOFOLLOW and O_NONBLOCK
and checked again once open, so one swapped after its check is neither followed nor
waited on; a tree is walked without following a link, every entry held to the same rules,
up to a cap on entries. A refusal is `Refused`, one line naming the path and why."""

from __future__ import annotations

import os
import stat
from collections.abc import Collection
from pathlib import Path
from typing import Any, NamedTuple

LINK = "is a symlink (links are never followed)"


class Refused(ValueError):
    """A file or tree refused unread: `path` and `why`, said as one line."""

    def __init__(self, path: Path, why: str) -> None:
        super().__init__(f"{path}: {why}")
        self.path, self.why = path, why


def shown(limit: int) -> str:
    """A cap in words: whole MB, whole KB, else bytes."""
    for unit, size in (("MB", 2**20), ("KB", 2**10)):
        if limit % size == 0:
            return f"{limit // size} {unit}"
    return f"{limit:,} bytes"


def _lstat(path: Path) -> os.stat_result:
    try:
        return path.lstat()
    except FileNotFoundError:
        raise Refused(path, "no such file") from None
    except OSError as err:
        raise Refused(path, err.strerror or "cannot be read") from None


def _why(info: os.stat_result, limit: int | None) -> str | None:
    """Why a file is not read (None: it is read)."""
    if stat.S_ISLNK(info.st_mode):
        return LINK
    if not stat.S_ISREG(info.st_mode):
        return "is not a regular file"
    if limit is not None and info.st_size > limit:
        return f"is larger than {shown(limit)} ({info.st_size:,} bytes)"
    return None


def regular(path: Path, limit: int | None = None) -> int:
    """The size of the regular file at `path`, refused when it is missing, a symlink, not a
    regular file or larger than `limit`: for a library that opens the file itself."""
    info = _lstat(path)
    why = _why(info, limit)
    if why is not None:
        raise Refused(path, why)
    return info.st_size


def read_bytes(path: Path, limit: int) -> bytes:
    """The bytes of the regular file at `path` (as `regular` checks it), refused past
    `limit` (one swapped or grown after its check too)."""
    regular(path, limit)
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        with os.fdopen(os.open(path, flags), "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                raise Refused(path, "is not a regular file")
            data = f.read(limit + 1)
    except OSError as err:
        raise Refused(path, err.strerror or "cannot be read") from None
    if len(data) > limit:
        raise Refused(path, f"is larger than {shown(limit)}")
    return data


class Entry(NamedTuple):
    """One entry of a walked tree."""

    path: Path
    rel: str  # posix, relative to the walked folder
    folder: bool
    size: int  # a regular file's bytes (0 for anything else)
    why: str | None  # why it is not read: a symlink, a special file, too large, too deep


def _entry(path: Path, rel: str, level: int, limit: int | None, depth: int | None) -> Entry:
    info = _lstat(path)
    if not stat.S_ISDIR(info.st_mode):
        size = info.st_size if stat.S_ISREG(info.st_mode) else 0
        return Entry(path, rel, False, size, _why(info, limit))
    if depth is None or level < depth:
        return Entry(path, rel, True, 0, None)
    deep = f"nested deeper than {depth} levels" if depth else "(this directory holds no folders)"
    return Entry(path, rel, True, 0, f"is a folder {deep}")


def walk(
    root: Path,
    *,
    max_entries: int,
    limit: int | None = None,
    depth: int | None = None,
    skip: Collection[str] = (),
) -> list[Entry]:
    """Every entry under the folder `root`, sorted as paths, each as `regular` judges a file
    and never followed if a link, entered `depth` levels down at most (None: any); a
    folder named in `skip` is left out. Refused when `root` is not a folder or holds more
    than `max_entries` entries, counted as they are found."""
    info = _lstat(root)
    if not stat.S_ISDIR(info.st_mode):
        raise Refused(root, LINK if stat.S_ISLNK(info.st_mode) else "is not a folder")
    out: list[Entry] = []
    todo = [(root, "", 0)]
    while todo:
        folder, rel, level = todo.pop()
        try:
            with os.scandir(folder) as found:
                for item in found:
                    if item.name in skip and item.is_dir(follow_symlinks=False):
                        continue
                    if len(out) >= max_entries:
                        raise Refused(root, f"holds more than {max_entries:,} files and folders")
                    name = f"{rel}{item.name}"
                    out.append(_entry(Path(item.path), name, level, limit, depth))
                    if out[-1].folder and out[-1].why is None:
                        todo.append((Path(item.path), f"{name}/", level + 1))
        except OSError as err:
            raise Refused(folder, err.strerror or "cannot be read") from None
    return sorted(out, key=lambda e: e.rel.split("/"))  # as paths sort: part by part


def files(root: Path, **walked: Any) -> list[Path]:
    """The regular files `walk(root, **walked)` finds, refused at the first it refuses."""
    entries = walk(root, **walked)
    for entry in entries:
        if entry.why is not None:
            raise Refused(entry.path, entry.why)
    return [e.path for e in entries if not e.folder]
