"""A run's total bounds: memory across all its processes (a cgroup of its own, under the
evaluator's) and the disk its writable tree may take (a size-capped tmpfs, `isolation`).

The cgroup is a child of the evaluator's own: cgroup v1's memory (and pids) hierarchy where
the machine mounts one, else cgroup v2's, where the evaluator's cgroup delegates the memory
controller (`cgroup.subtree_control`). Its limit covers every process of the run and the
pages of its tmpfs (the kernel charges a file's pages to the cgroup that wrote them), with
no swap; past it the kernel's OOM killer ends the run's largest process (the agent's, whose
`oom_score_adj` is raised: never the supervisor). Fail closed: where no cgroup can be made
and limited, `make` raises `BoundsUnavailable`, one line, and nothing runs; there is no
mode without the bounds."""

from __future__ import annotations

import contextlib
import functools
import os
import secrets
from pathlib import Path

from checkout_consent.runtime.runner import RunFailed

MEMORY_MIB = 1024  # a sample's processes and the files of its tree, in total
DISK_MIB = 256  # a sample's writable tree (a tmpfs; its files count in MEMORY_MIB too)
PIDS = 512  # processes of a sample at once (each run's namespace: isolation.PID_MAX)
WHAT = (
    "the checkout-consent sandbox cannot bound a run's memory here ({why}); it needs a "
    "cgroup it may create under its own (cgroup v1's memory hierarchy, or cgroup v2 with "
    "the memory controller delegated): run with --sandbox docker instead"
)


class BoundsUnavailable(RunFailed):
    """No cgroup can bound a run's memory here: nothing is run."""

    def __init__(self, why: str) -> None:
        super().__init__(WHAT.format(why=why))
        self.why = why


def _own() -> dict[str, str]:
    """The evaluator's cgroup by controller (`unified`: cgroup v2's)."""
    out: dict[str, str] = {}
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        for name in controllers.split(",") if controllers else ["unified"]:
            out[name] = path
    return out


def _mounts() -> dict[str, tuple[str, str]]:
    """(mount point, the mount's root) of the memory, pids and v2 (`unified`) hierarchies."""
    out: dict[str, tuple[str, str]] = {}
    for line in Path("/proc/self/mountinfo").read_text().splitlines():
        left, _, right = line.partition(" - ")
        fields, (fstype, _, options) = left.split(), (right.split() + ["", "", ""])[:3]
        if fstype == "cgroup2":
            out.setdefault("unified", (fields[4], fields[3]))
        elif fstype == "cgroup":
            for name in set(options.split(",")) & {"memory", "pids"}:
                out.setdefault(name, (fields[4], fields[3]))
    return out


def _under(mounts: dict[str, tuple[str, str]], own: dict[str, str], name: str) -> Path | None:
    if name not in mounts or name not in own:
        return None
    point, root = mounts[name]
    path = own[name]
    inner = path[len(root) :] if root != "/" and path.startswith(root) else path
    return Path(point + inner)


def _write(path: Path, value: str) -> None:
    path.write_text(value)


class Cgroup:
    """A run's (or a sample's) cgroup: its directories, one a hierarchy; `procs` are the
    files a process writes 0 into to join (the run's first process does, `isolation`)."""

    def __init__(self, dirs: list[Path], v2: bool) -> None:
        self.dirs, self.v2 = dirs, v2

    @property
    def procs(self) -> list[str]:
        return [str(d / "cgroup.procs") for d in self.dirs]

    def oom_kills(self) -> int:
        """How many processes the kernel killed at the memory bound."""
        name = "memory.events" if self.v2 else "memory.oom_control"
        try:
            text = (self.dirs[0] / name).read_text()
        except OSError:
            return 0
        found = [line.split()[1] for line in text.splitlines() if line.startswith("oom_kill ")]
        return int(found[0]) if found else 0

    def peak_mib(self) -> float:
        """The most memory the cgroup held at once, in MiB (0 where the kernel says not)."""
        name = "memory.peak" if self.v2 else "memory.max_usage_in_bytes"
        try:
            return int((self.dirs[0] / name).read_text()) / (1 << 20)
        except (OSError, ValueError):
            return 0.0

    def remove(self) -> None:
        """Kill what is left in it (nothing, normally) and remove it."""
        for folder in self.dirs:
            with contextlib.suppress(OSError, ValueError):
                for pid in (folder / "cgroup.procs").read_text().split():
                    with contextlib.suppress(OSError):
                        os.kill(int(pid), 9)
            with contextlib.suppress(OSError):
                folder.rmdir()


def _limit_v1(memory: Path, pids: Path | None, mib: int) -> None:
    _write(memory / "memory.limit_in_bytes", str(mib << 20))
    if (memory / "memory.memsw.limit_in_bytes").exists():  # no swap beyond it
        _write(memory / "memory.memsw.limit_in_bytes", str(mib << 20))
    if pids is not None:
        _write(pids / "pids.max", str(PIDS))


def _limit_v2(folder: Path, mib: int) -> None:
    _write(folder / "memory.max", str(mib << 20))
    if (folder / "memory.swap.max").exists():
        _write(folder / "memory.swap.max", "0")
    if (folder / "pids.max").exists():
        _write(folder / "pids.max", str(PIDS))


def _made(dirs: list[Path], v2: bool, mib: int) -> Cgroup:
    """The cgroup of `dirs`, made and limited; removed again if any step fails."""
    made = Cgroup(dirs, v2)
    try:
        for folder in dirs:
            folder.mkdir()
        if v2:
            _limit_v2(dirs[0], mib)
        else:
            _limit_v1(dirs[0], dirs[1] if len(dirs) > 1 else None, mib)
    except OSError:
        made.remove()
        raise
    return made


def _make(mib: int) -> Cgroup:
    own, mounts = _own(), _mounts()
    name = f"checkout-consent-{os.getpid()}-{secrets.token_hex(4)}"
    memory = _under(mounts, own, "memory")
    if memory is not None:  # cgroup v1 (or a hybrid machine's v1 memory hierarchy)
        pids = _under(mounts, own, "pids")
        return _made([memory / name] + ([] if pids is None else [pids / name]), False, mib)
    unified = _under(mounts, own, "unified")
    if unified is None:
        raise OSError(0, "no cgroup hierarchy is mounted")
    if "memory" not in (unified / "cgroup.subtree_control").read_text().split():
        raise OSError(0, f"{unified} does not delegate the memory controller")
    return _made([unified / name], True, mib)


def make(mib: int | None = None) -> Cgroup:
    """A fresh cgroup bounding memory at `mib` (default MEMORY_MIB); BoundsUnavailable,
    one line, where none can be made here."""
    try:
        return _make(MEMORY_MIB if mib is None else mib)
    except OSError as err:
        why = err.strerror or str(err)
        where = f": {err.filename}" if err.filename else ""
        raise BoundsUnavailable(why + where) from None


@functools.cache
def problem() -> BoundsUnavailable | None:
    """Why no run can be bounded here, or None: probed once per process (every run still
    makes its own cgroup, and refuses if it cannot)."""
    try:
        make(16).remove()
    except BoundsUnavailable as refused:
        return refused
    return None
