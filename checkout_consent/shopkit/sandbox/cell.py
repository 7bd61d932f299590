"""One sample's bounds for its life (the `checkout-consent` sandbox, `environment.py`): its
cgroup (`bounds.py`: every command of the sample counts in one memory bound) and its tree,
a tmpfs of `bounds.DISK_MIB` mounted by a holder process in a user and mount namespace of
its own. Every command enters the holder's namespaces (util-linux `nsenter`) before its own
(`isolation.command`), so it sees the tree the sample's earlier commands left; the evaluator
reads and writes the tree's files through `/proc/<holder>/root`. The holder ends when its
stdin closes (`close`, or the evaluator's death): the tmpfs goes with it."""

from __future__ import annotations

import contextlib
import os
import selectors
import shutil
import subprocess
import sys
from pathlib import Path

from checkout_consent.shopkit.sandbox import bounds, isolation

HOLDER = """
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
root, size = sys.argv[1], sys.argv[2]
if libc.mount(b"tmpfs", root.encode(), b"tmpfs", 6, f"size={size},mode=700".encode()) != 0:
    sys.stdout.write("mount: " + os.strerror(ctypes.get_errno()) + "\\n")
    sys.exit(1)
for sub in ("build", "tmp"):
    os.mkdir(os.path.join(root, sub), 0o755)
sys.stdout.write("ready\\n")
sys.stdout.flush()
sys.stdin.buffer.read()
"""
READY_S = 20.0


def _first_line(proc: subprocess.Popen[bytes]) -> str:
    assert proc.stdout is not None
    with selectors.DefaultSelector() as sel:
        sel.register(proc.stdout, selectors.EVENT_READ)
        if not sel.select(timeout=READY_S):
            return "the holder did not start"
    return proc.stdout.readline().decode("utf-8", "replace").strip() or "the holder ended"


class Cell:
    """A sample's cgroup and its tree (`root`, holding `build/` and `tmp/`)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.cgroup = bounds.make()
        unshare = shutil.which(isolation.UNSHARE, path=isolation.SYSTEM_PATH) or "unshare"
        python = [sys.executable, "-I", "-S", "-B", "-c", HOLDER]
        argv = [unshare, "--user", "--map-root-user", "--mount", "--", *python]
        try:
            self.holder = subprocess.Popen(
                [*argv, str(root), f"{bounds.DISK_MIB}m"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
        except OSError as err:
            self.cgroup.remove()
            raise isolation.IsolationUnavailable(isolation.WHAT.format(why=err.strerror)) from None
        said = _first_line(self.holder)
        if said != "ready":
            self.close()
            raise isolation.IsolationUnavailable(isolation.WHAT.format(why=said[:200]))

    @property
    def pid(self) -> int:
        return self.holder.pid

    def outside(self, path: Path) -> Path:
        """Where the evaluator finds `path` of the tree (through the holder's root)."""
        return Path(f"/proc/{self.holder.pid}/root") / path.relative_to("/")

    def close(self) -> None:
        """End the holder (its tmpfs goes with it) and remove the cgroup."""
        with contextlib.suppress(OSError):
            assert self.holder.stdin is not None
            self.holder.stdin.close()
        try:
            self.holder.wait(timeout=5)
        except subprocess.TimeoutExpired:
            os.killpg(self.holder.pid, 9)
            self.holder.wait()
        if self.holder.stdout is not None:
            self.holder.stdout.close()
        self.cgroup.remove()
