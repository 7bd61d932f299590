"""Isolation for every local run: the command that starts the supervisor in its own user,
PID, network and mount namespaces (util-linux `unshare`), and the view of the machine it
gets (`isolate_script.py` builds it). Fail closed: `require()` probes once per process and
raises `IsolationUnavailable`, one line naming what is missing, where the kernel or the
machine cannot give it; there is no weaker mode.

The view: read-only, the system's programs and libraries (`/usr` and the top-level links
into it), the few files of `/etc` that a shell and Python read, and the running Python
(its prefix; of a virtual environment only `bin/` and `pyvenv.cfg`), with every
site-packages directory covered; writable, the sample's directory only. Everything else,
the checkout, `tasks/`, `$HOME` and the evaluator's processes included, is absent."""

from __future__ import annotations

import atexit
import binascii
import functools
import glob
import marshal
import os
import shutil
import site
import sys
import tempfile
from pathlib import Path
from typing import Any

from checkout_consent.runtime.runner import RunFailed

SCRIPT = (Path(__file__).parent / "isolate_script.py").read_text(encoding="utf-8")
UNSHARE = "unshare"  # util-linux's; a test names a missing one to reach the refusal
NSENTER = "nsenter"  # util-linux's: a sample's commands enter its cell's namespaces
SYSTEM_PATH = "/usr/bin:/bin:/usr/sbin:/sbin"
PID_MAX = 301  # processes a run may hold at once (the kernel's least pid_max)
OWN = ["--net", "--pid", "--mount", "--fork", "--kill-child"]
NAMESPACES = ["--user", "--map-root-user", *OWN]
SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
ETC = (
    "ld.so.cache ld.so.conf ld.so.conf.d passwd group nsswitch.conf localtime "
    "profile profile.d bash.bashrc inputrc alternatives"
).split()
WHAT = (
    "the checkout-consent sandbox cannot isolate a run here ({why}); it needs util-linux "
    "unshare and Linux user, PID, network and mount namespaces with a per-namespace "
    "pid_max (Linux 6.14+): run with --sandbox docker instead"
)


class IsolationUnavailable(RunFailed):
    """The kernel or the machine cannot give a run its namespaces: nothing is run."""


def _python() -> tuple[list[str], list[str]]:
    """(read-only paths, site-packages to cover) of the running Python."""
    ro = [sys.base_prefix]
    if sys.prefix != sys.base_prefix:  # a virtual environment: its interpreter, no packages
        ro += [os.path.join(sys.prefix, "bin"), os.path.join(sys.prefix, "pyvenv.cfg")]
    packages = set(site.getsitepackages([sys.base_prefix]))
    packages.update(glob.glob("/usr/lib/python3*/dist-packages"))
    packages.update(glob.glob("/usr/local/lib/python3*/dist-packages"))
    packages.update(glob.glob("/usr/local/lib/python3*/site-packages"))
    return ro, sorted(p for p in packages if os.path.isdir(p) and not os.path.islink(p))


_ROOTS: list[str] = []


def _root() -> str:
    """An empty directory of this process, where each run mounts its new root (only inside
    the run's mount namespace: here it stays empty, and is removed at exit); made again if
    something removed it."""
    if not (_ROOTS and os.path.isdir(_ROOTS[-1])):
        _ROOTS.append(tempfile.mkdtemp(prefix="checkout-consent-root-"))
        atexit.register(shutil.rmtree, _ROOTS[-1], ignore_errors=True)
    return _ROOTS[-1]


def view(
    writable: Path,
    fd: int,
    nonce: str,
    probe: bool = False,
    *,
    cgroups: list[str],
    disk: str | None,
) -> dict[str, Any]:
    """What a run may see: `writable` (the sample's directory: as it is, a cell's tmpfs,
    or given a `disk` size, a copy of it on a tmpfs of that size) and the read-only rest;
    the first process joins `cgroups` (the cgroup.procs files of its bounds)."""
    python, packages = _python()
    system = [p for p in SYSTEM if os.path.lexists(p)]
    etc = [f"/etc/{n}" for n in ETC if os.path.lexists(f"/etc/{n}")]
    ro = sorted({*system, *etc, *(p for p in python if os.path.exists(p))})
    under = [p for p in ro if not any(p.startswith(q + "/") for q in ro if q != p)]
    return {
        "root": _root(),
        "ro": under,
        "rw": [str(writable)],
        "mask": packages,
        "pid_max": PID_MAX,
        "cgroups": cgroups,
        "disk": disk,
        "fd": fd,
        "nonce": nonce,
        "probe": probe,
    }


def command(argv: list[str], plan: dict[str, Any], holder: int | None = None) -> list[str]:
    """`argv` (the supervisor) run isolated with the view `plan`; in the user and mount
    namespaces of a cell's `holder` (its pid) when given, so it sees the cell's tree."""
    unshare = shutil.which(UNSHARE, path=SYSTEM_PATH) or UNSHARE
    encoded = binascii.b2a_base64(marshal.dumps(plan), newline=False).decode("ascii")
    python = [sys.executable, "-I", "-S", "-B", "-c", SCRIPT, encoded]
    if holder is None:
        return [unshare, *NAMESPACES, "--", *python, *argv]
    nsenter = shutil.which(NSENTER, path=SYSTEM_PATH) or NSENTER
    enter = [nsenter, f"--target={holder}", "--user", "--mount", "--"]
    return [*enter, unshare, *OWN, "--", *python, *argv]


@functools.cache
def problem() -> str | None:
    """Why runs cannot be isolated here, or None: one probe run per process."""
    from checkout_consent.shopkit.sandbox.sandbox import isolated_probe

    return isolated_probe()


def require() -> None:
    """Raise `IsolationUnavailable` unless this machine isolates runs, or
    `bounds.BoundsUnavailable` unless it bounds their memory (`bounds.py`)."""
    from checkout_consent.shopkit.sandbox import bounds

    refused = bounds.problem()
    if refused is not None:
        raise refused
    why = problem()
    if why is not None:
        raise IsolationUnavailable(WHAT.format(why=why))
