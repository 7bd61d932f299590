"""Weights checked before a local server loads them: a GGUF file's sha256 and the name its
own header gives (`general.name`), read with bounded sizes from a file that may be anything."""

from __future__ import annotations

import hashlib
import struct
from pathlib import Path
from typing import BinaryIO

MAGIC = b"GGUF"
MAX_KEYS = 100_000
MAX_STRING = 1 << 20  # bytes of one key or string value
MAX_ARRAY = 1 << 24  # items of one array value
# value type -> struct format of its scalar (8: string, 9: array)
SCALARS = {**dict(enumerate("BbHhIif?")), 10: "Q", 11: "q", 12: "d"}


class NotGguf(ValueError):
    """The file is not a GGUF model, or its header is malformed or bounded out."""


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        while chunk := f.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def _bytes(f: BinaryIO, size: int) -> bytes:
    data = f.read(size)
    if len(data) != size:
        raise NotGguf("the header ends early")
    return data


def _read(f: BinaryIO, fmt: str) -> int | float | bool:
    value: int | float | bool = struct.unpack("<" + fmt, _bytes(f, struct.calcsize("<" + fmt)))[0]
    return value


def _string(f: BinaryIO) -> str:
    length = int(_read(f, "Q"))
    if length > MAX_STRING:
        raise NotGguf(f"a header string of {length} bytes")
    return _bytes(f, length).decode("utf-8", errors="replace")


def _skip(f: BinaryIO, kind: int) -> None:
    if kind in SCALARS:
        _read(f, SCALARS[kind])
    elif kind == 8:
        _string(f)
    elif kind == 9:
        item, count = int(_read(f, "I")), int(_read(f, "Q"))
        if count > MAX_ARRAY or item == 9:
            raise NotGguf(f"a header array of {count} items of type {item}")
        if item in SCALARS:  # fixed size: skip at once
            f.seek(count * struct.calcsize("<" + SCALARS[item]), 1)
        else:
            for _ in range(count):
                _skip(f, item)
    else:
        raise NotGguf(f"unknown header value type {kind}")


def header_string(path: Path, key: str) -> str | None:
    """A string value of the GGUF header (None when the header has no such key)."""
    with path.open("rb") as f:
        if f.read(4) != MAGIC:
            raise NotGguf(f"{path} is not a GGUF file (no GGUF magic)")
        version, _tensors, keys = _read(f, "I"), _read(f, "Q"), int(_read(f, "Q"))
        if version not in (2, 3) or keys > MAX_KEYS:
            raise NotGguf(f"{path}: GGUF version {version} with {keys} keys is not read here")
        for _ in range(keys):
            name, kind = _string(f), int(_read(f, "I"))
            if name == key and kind == 8:
                return _string(f)
            _skip(f, kind)
    return None


def general_name(path: Path) -> str:
    """The model name the GGUF header gives (`general.name`); NotGguf if there is none."""
    name = header_string(path, "general.name")
    if name is None:
        raise NotGguf(f"{path}: the GGUF header names no model (no general.name)")
    return name


def chat_template(path: Path) -> str | None:
    """The model's own chat template (`tokenizer.chat_template`), if its header has one."""
    return header_string(path, "tokenizer.chat_template")
