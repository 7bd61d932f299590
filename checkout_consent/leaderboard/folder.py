"""What a submission folder may hold, read without following anything out of it.

Allowed: `submission.yaml`, an optional `README.md`, `logs/*.eval`, cassette runs
`cassettes/<run>/{run.json, cassette.json.gz, *.golden.json.gz}` (and the legacy
`*.golden.json` and `*.yaml.gz`, which replay then refuses naming their format), and (a
family that scores carts) `carts/*.json`.
Anything else, a symlink, a special file, or a folder over the caps is a refusal. An .eval
log is a zip: its members' declared sizes are capped too, before anything is decompressed."""

from __future__ import annotations

import os
import re
import stat
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

MAX_FILES = 400
MAX_FILE_BYTES = 64 * 1024 * 1024
MAX_TOTAL_BYTES = 256 * 1024 * 1024
MAX_UNZIPPED_BYTES = 512 * 1024 * 1024
ALLOWED = (
    re.compile(r"submission\.yaml"),
    re.compile(r"README\.md"),
    re.compile(r"logs/[A-Za-z0-9._+-]{1,200}\.eval"),
    re.compile(r"carts/[a-z0-9._-]{1,120}\.json"),  # carts: stored, never ranked
    re.compile(
        r"cassettes/[A-Za-z0-9._-]{1,120}/(run\.json|cassette\.json\.gz|[A-Za-z0-9._-]{1,160}"
        r"\.(yaml\.gz|golden\.json|golden\.json\.gz))"
    ),
)


@dataclass
class Listing:
    """The files of a folder (relative posix paths) and every reason it is refused."""

    files: list[str] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)

    def logs(self) -> list[str]:
        return [f for f in self.files if f.startswith("logs/")]

    def cassette_runs(self) -> list[str]:
        return sorted(
            {"/".join(f.split("/")[:2]) for f in self.files if f.startswith("cassettes/")}
        )


def _walk(root: Path, rel: str, out: Listing, depth: int) -> None:
    with os.scandir(root / rel if rel else root) as entries:
        for entry in sorted(entries, key=lambda e: e.name):
            path = f"{rel}/{entry.name}" if rel else entry.name
            mode = entry.stat(follow_symlinks=False).st_mode
            if stat.S_ISLNK(mode):
                out.refusals.append(f"{path}: a symlink (submissions hold plain files only)")
            elif stat.S_ISDIR(mode) and depth < 2:
                _walk(root, path, out, depth + 1)
            elif stat.S_ISREG(mode) and any(p.fullmatch(path) for p in ALLOWED):
                out.files.append(path)
            else:
                out.refusals.append(
                    f"{path}: not a file a submission may hold "
                    "(see CONTRIBUTING.md, 'Submitting to the leaderboard')"
                )


def _sizes(root: Path, out: Listing) -> None:
    sizes = {f: (root / f).stat().st_size for f in out.files}
    out.refusals += [
        f"{f}: {n} bytes, over the {MAX_FILE_BYTES >> 20} MB cap per file"
        for f, n in sizes.items()
        if n > MAX_FILE_BYTES
    ]
    if sum(sizes.values()) > MAX_TOTAL_BYTES:
        out.refusals.append(f"the folder holds over {MAX_TOTAL_BYTES >> 20} MB")
    for log in out.logs():
        try:
            with zipfile.ZipFile(root / log) as archive:
                unzipped = sum(i.file_size for i in archive.infolist())
        except (zipfile.BadZipFile, OSError):
            out.refusals.append(f"{log}: not an Inspect .eval log (not a zip)")
            continue
        if unzipped > MAX_UNZIPPED_BYTES:
            out.refusals.append(f"{log}: unzips to over {MAX_UNZIPPED_BYTES >> 20} MB")


def list_folder(root: Path) -> Listing:
    """Every file of the submission at `root`, and every reason to refuse the folder."""
    out = Listing()
    if root.is_symlink() or not root.is_dir():
        out.refusals.append(f"{root}: not a folder (or a symlink to one)")
        return out
    _walk(root, "", out, 0)
    if len(out.files) > MAX_FILES:
        out.refusals.append(f"{len(out.files)} files, over the cap of {MAX_FILES}")
        return out
    _sizes(root, out)
    return out
