"""The secret scan: anything that looks like a credential in cassettes and logs (provider
key formats, AWS, GitHub, PEM keys, bearer tokens, keys assigned by name); gzip unpacked
(bounded), .eval logs member by member. In cassettes a secret-bearing header name is a
finding even with no value. Replay scans every directory before it plays it; a finding
shows only the first characters of what it found."""

from __future__ import annotations

import re
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

from checkout_consent.cassettes.load import confined, read_bytes, read_gzip
from checkout_consent.cassettes.match import SECRET_HEADERS
from checkout_consent.runtime import untrusted
from checkout_consent.runtime.logs import zip_members

MAX_SCANNED_BYTES = 256 * 1024 * 1024
MAX_SCANNED_FILES = 100_000
_PROVIDER_NAMES = (
    rb"openai|anthropic|google|gemini|groq|xai|grok|mistral|together|togetherai"
    rb"|fireworks|perplexity|pplx|hf|huggingface|hugging_face|deepseek"
)
# Most specific first: a span found by one kind is not reported again by a later one. The
# patterns start with a literal (re then searches fast; a leading \b would defeat that), and
# a match right after a letter, digit or _ is dropped (the \b, checked by hand). Patterns in
# CASELESS are matched against the lower-cased text, for the same reason.
KEY_PATTERNS: dict[str, re.Pattern[bytes]] = {
    "anthropic key": re.compile(rb"sk-ant-[A-Za-z0-9_\-]{16,}"),
    "openai key": re.compile(rb"sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{16,}"),
    "google api key": re.compile(rb"AIza[0-9A-Za-z_\-]{35}"),
    "groq key": re.compile(rb"gsk_[A-Za-z0-9]{20,}"),
    "xai key": re.compile(rb"xai-[A-Za-z0-9]{20,}"),
    "fireworks key": re.compile(rb"fw_[A-Za-z0-9]{20,}"),
    "perplexity key": re.compile(rb"pplx-[A-Za-z0-9]{20,}"),
    "hugging face token": re.compile(rb"hf_[A-Za-z0-9]{30,}"),
    "together key": re.compile(rb"tgp_v1_[A-Za-z0-9_\-]{20,}"),
    # "<provider>_API_KEY=<value>": found by its "api" and checked for a name before it
    "provider key by name": re.compile(
        rb"api[_-]?(?:key|token)[\"']?\s*[:=]\s*[\"']?[a-z0-9_\-]{20,}"
    ),
    "aws access key": re.compile(rb"(?:AKIA|ASIA)[0-9A-Z]{16}(?![0-9A-Za-z_])"),
    "aws secret key": re.compile(
        rb"aws_?secret(?:_access)?_?key[\"']?\s*[:=]\s*[\"']?[a-z0-9/+=]{40}"
    ),
    "github token": re.compile(rb"(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,})"),
    "pem private key": re.compile(rb"-----BEGIN[A-Z ]*PRIVATE" + rb" KEY-----"),
    "bearer token": re.compile(rb"bearer\s+[a-z0-9_\-.=]{16,}"),
    "openai organisation": re.compile(rb"org-[A-Za-z0-9]{20,}"),
    "openai project": re.compile(rb"proj_[A-Za-z0-9]{20,}"),
    "slack token": re.compile(rb"xox[abprs]-[A-Za-z0-9\-]{10,}"),
}
_NAME_BEFORE = re.compile(rb"(?:" + _PROVIDER_NAMES + rb")[_-]?(?:ai[_-]?)?\Z")
CASELESS = frozenset({"provider key by name", "aws secret key", "bearer token"})
_WORD = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
_HEADER_NAMES = b"|".join(h.encode() for h in SECRET_HEADERS)
# a header name as a YAML key (`name:` at a line's start) or as a JSON key
HEADER_PATTERN = re.compile(
    rb"(?im)^\s*['\"]?(" + _HEADER_NAMES + rb")['\"]?\s*:|\"(" + _HEADER_NAMES + rb")\"\s*:"
)


class Finding(NamedTuple):
    path: str
    kind: str
    excerpt: str

    def __str__(self) -> str:
        return f"{self.path}: {self.kind}: {self.excerpt}"


def _contents(path: Path) -> Iterator[tuple[str, bytes]]:
    """(name, bytes) of a file, or of each member of a zip (an .eval log)."""
    if path.suffix == ".gz":
        yield str(path), read_gzip(path, MAX_SCANNED_BYTES)
    elif zipfile.is_zipfile(path):
        for member, data in zip_members(path):
            yield f"{path}!{member}", data
    else:
        yield str(path), read_bytes(path, MAX_SCANNED_BYTES)


def _spans(data: bytes) -> Iterator[tuple[str, int, int]]:
    """(kind, start, end) of every credential-like match that starts a word."""
    lowered = data.lower()
    for kind, pattern in KEY_PATTERNS.items():
        for m in pattern.finditer(lowered if kind in CASELESS else data):
            start = m.start()
            if kind == "provider key by name":
                name = _NAME_BEFORE.search(lowered, max(0, start - 20), start)
                if not name:
                    continue
                start = name.start()
            if start == 0 or data[start - 1] not in _WORD:
                yield kind, start, m.end()


def scan_bytes(name: str, data: bytes, *, cassette: bool) -> list[Finding]:
    """Every credential-like span in `data`, each reported once (most specific kind)."""
    found: list[Finding] = []
    taken: list[tuple[int, int]] = []
    for kind, start, end in _spans(data):
        if any(s <= start < e or start <= s < end for s, e in taken):
            continue
        taken.append((start, end))
        text = data[start:end].decode("utf-8", "replace")  # shown only in part
        found.append(Finding(name, kind, text[:8] + "..." if len(text) > 8 else text))
    if cassette:
        found += [
            Finding(name, "secret header kept", (m.group(1) or m.group(2)).decode())
            for m in HEADER_PATTERN.finditer(data)
        ]
    return found


def _files(root: Path) -> list[Path]:
    """Regular files at or under `root`, never through a symlink (`runtime.untrusted`)."""
    if root.is_symlink() or not root.exists():
        return []
    if root.is_file():
        return [root]
    entries = untrusted.walk(root, max_entries=MAX_SCANNED_FILES)
    return [e.path for e in entries if not e.folder and e.why is None]


def scan(paths: list[Path]) -> list[Finding]:
    """Every finding in the files at or under `paths` (cassette rules under cassettes/)."""
    found: list[Finding] = []
    for root in paths:
        for path in _files(root):
            cassette = "cassettes" in path.parts or path.name.endswith((".yaml.gz", ".json.gz"))
            for name, data in _contents(path):
                found += scan_bytes(name, data, cassette=cassette)
    return found


def scan_directory(directory: Path) -> list[Finding]:
    """Every finding in one cassette directory (its files only; links refused)."""
    found: list[Finding] = []
    for path in confined(directory):
        gz = path.name.endswith(".gz")
        data = read_gzip(path, MAX_SCANNED_BYTES) if gz else read_bytes(path, MAX_SCANNED_BYTES)
        found += scan_bytes(str(path), data, cassette=True)
    return found
