"""The secret scan: find anything that looks like a credential in cassettes and logs.

Text files are read as they are; gzip files decompressed; .eval logs (zip) member by member.
In cassettes, a secret-bearing header name is a finding even with no value (it should
never have been kept).
"""

from __future__ import annotations

import re
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

from checkout_consent.cassettes.match import SECRET_HEADERS
from checkout_consent.cassettes.store import read_unit
from checkout_consent.runtime.logs import zip_members

KEY_PATTERNS: dict[str, re.Pattern[bytes]] = {
    "openai/anthropic-style key": re.compile(rb"\bsk-[A-Za-z0-9_\-]{16,}"),
    "bearer token": re.compile(rb"(?i)\bbearer\s+[A-Za-z0-9_\-.=]{16,}"),
    "openai organisation": re.compile(rb"\borg-[A-Za-z0-9]{20,}"),
    "openai project": re.compile(rb"\bproj_[A-Za-z0-9]{20,}"),
    "aws access key": re.compile(rb"\bAKIA[0-9A-Z]{16}\b"),
    "github token": re.compile(rb"\bgh[pousr]_[A-Za-z0-9]{30,}"),
    "google api key": re.compile(rb"\bAIza[0-9A-Za-z_\-]{35}"),
    "slack token": re.compile(rb"\bxox[abprs]-[A-Za-z0-9\-]{10,}"),
}
HEADER_PATTERN = re.compile(
    rb"(?im)^\s*['\"]?(" + b"|".join(h.encode() for h in SECRET_HEADERS) + rb")['\"]?\s*:"
)


class Finding(NamedTuple):
    path: str
    kind: str
    excerpt: str

    def __str__(self) -> str:
        return f"{self.path}: {self.kind}: {self.excerpt}"


def _contents(path: Path) -> Iterator[tuple[str, bytes]]:
    """(name, bytes) of a file, or of each member of a zip (an .eval log)."""
    data = path.read_bytes()
    if path.suffix == ".gz":
        yield str(path), read_unit(path)
    elif zipfile.is_zipfile(path):
        for member, data in zip_members(path):
            yield f"{path}!{member}", data
    else:
        yield str(path), data


def _redact(match: bytes) -> str:
    text = match.decode("utf-8", "replace")
    return text[:8] + "..." if len(text) > 8 else text


def scan_bytes(name: str, data: bytes, *, cassette: bool) -> list[Finding]:
    found = [Finding(name, kind, _redact(m.group(0)))
             for kind, pattern in KEY_PATTERNS.items() for m in pattern.finditer(data)]
    if cassette:
        found += [Finding(name, "secret header kept", m.group(1).decode())
                  for m in HEADER_PATTERN.finditer(data)]
    return found


def scan(paths: list[Path]) -> list[Finding]:
    """Every finding in the files at or under `paths` (cassette rules under cassettes/)."""
    found: list[Finding] = []
    for root in paths:
        files = [root] if root.is_file() else sorted(p for p in root.rglob("*") if p.is_file())
        for path in files:
            cassette = "cassettes" in path.parts or path.name.endswith(".yaml.gz")
            for name, data in _contents(path):
                found += scan_bytes(name, data, cassette=cassette)
    return found
