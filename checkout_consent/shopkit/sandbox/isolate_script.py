"""The first program of every local run: one stdlib-only file, run as `python -I -S -B -c`
by util-linux `unshare` in a new user, PID, network and mount namespace (`isolation.py`).

As PID 1 of that namespace it first joins the run's cgroup (`bounds.py`: its memory bound
holds every process it starts), then builds the run's whole file system on an empty tmpfs:
the paths running Python needs bound read-only, the sample's directory bound writable (a
one-off run's: a copy of it on a tmpfs of the view's `disk` size), a fresh
`/proc` (this namespace's processes only), a few device nodes, a small `/tmp`, and the
site-packages directories covered by empty read-only tmpfs. It caps the namespace at
`pid_max` processes, pivots into the new root, drops every capability for good (no
capability can be regained by exec, even as root), and executes the supervisor
(`sandbox_script.py`) in its place. The old root is detached: nothing else of the machine
is reachable. Any failure is reported on the result pipe as one `isolation` record and
nothing runs (fail closed). Its argument is the view (base64 of marshal); the rest is the command.
"""

import _json
import binascii
import ctypes
import marshal
import os
import sys

MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 1, 2, 4, 8
MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 32, 4096, 16384, 1 << 18
# statvfs flags a bind's read-only remount must keep (the kernel locks them in a user ns)
KEPT = ((2, MS_NOSUID), (4, MS_NODEV), (8, MS_NOEXEC), (1024, 1024), (2048, 2048))
DEVICES = ("null", "zero", "full", "random", "urandom", "tty")
LIBC = ctypes.CDLL(None, use_errno=True)
SCRATCH = "16m"  # the size of /tmp and of /dev/shm, each


def _mount(source, target, fstype, flags, data=None):
    enc = [None if v is None else v.encode() for v in (source, target, fstype, data)]
    if LIBC.mount(enc[0], enc[1], enc[2], flags, enc[3]) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"mount {target}: {os.strerror(err)}")


def _place(root, path, like):
    """An empty mount point at root+path, a directory or a file as `like` is."""
    target = root + path
    if os.path.isdir(like):
        os.makedirs(target, exist_ok=True)
    else:
        os.makedirs(os.path.dirname(target), exist_ok=True)
        os.close(os.open(target, os.O_CREAT | os.O_WRONLY, 0o644))
    return target


def _bind(root, path, writable):
    if os.path.islink(path):  # /bin -> usr/bin, /etc/localtime -> ...: the same link
        os.makedirs(os.path.dirname(root + path), exist_ok=True)
        os.symlink(os.readlink(path), root + path)
        return
    target = _place(root, path, path)
    _mount(path, target, None, MS_BIND | MS_REC)
    if not writable:
        flags = os.statvfs(path).f_flag
        kept = sum(ms for st, ms in KEPT if flags & st)
        _mount(None, target, None, MS_REMOUNT | MS_BIND | MS_RDONLY | kept)


def _copy(source, target):
    """The directories and regular files under `source`, copied to `target`."""
    for entry in os.scandir(source):
        made = os.path.join(target, entry.name)
        if entry.is_dir(follow_symlinks=False):
            os.mkdir(made, 0o755)
            _copy(entry.path, made)
        elif entry.is_file(follow_symlinks=False):
            with open(entry.path, "rb") as old, open(made, "wb") as new:
                new.write(old.read())
            os.chmod(made, entry.stat(follow_symlinks=False).st_mode & 0o755)


def _writable(root, path, disk):
    """`path` writable: bound as it is (a sample's, a tmpfs already), or, given a `disk`
    size, a tmpfs of that size holding a copy of its files (a one-off run's)."""
    if disk is None:
        return _bind(root, path, True)
    target = _place(root, path, path)
    _mount("tmpfs", target, "tmpfs", MS_NOSUID | MS_NODEV, f"size={disk},mode=755")
    _copy(path, target)


def _join(view):
    """Join the run's cgroup, every process after us with it; none given: refuse."""
    if not view.get("cgroups"):
        raise OSError(0, "no cgroup bounds the run's memory")
    for procs in view["cgroups"]:
        with open(procs, "w") as handle:
            handle.write("0")


def _tmpfs(target, size, readonly=False):
    os.makedirs(target, exist_ok=True)
    flags = MS_NOSUID | MS_NODEV | (MS_RDONLY if readonly else 0)
    _mount("tmpfs", target, "tmpfs", flags, f"size={size},mode=755")


def _devices(root):
    _tmpfs(root + "/dev", "1m")
    for name in DEVICES:
        if os.path.exists("/dev/" + name):
            _mount("/dev/" + name, _place(root, "/dev/" + name, "/dev/null"), None, MS_BIND)
    os.symlink("/proc/self/fd", root + "/dev/fd")
    for fd, name in enumerate(("stdin", "stdout", "stderr")):
        os.symlink(f"/proc/self/fd/{fd}", root + "/dev/" + name)
    _tmpfs(root + "/dev/shm", SCRATCH)


def _build_root(view):
    root = view["root"]
    _mount(None, "/", None, MS_REC | MS_PRIVATE)
    _tmpfs(root, "1m")
    _devices(root)
    os.makedirs(root + "/proc")
    _mount("proc", root + "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
    try:
        with open(root + "/proc/sys/kernel/pid_max", "w") as handle:
            handle.write(str(view["pid_max"]))
    except OSError as err:
        raise OSError(err.errno, f"no per-namespace pid_max: {err.strerror}") from None
    _tmpfs(root + "/tmp", SCRATCH)
    for path in sorted(view["ro"] + view["rw"]):
        if path in view["rw"]:
            _writable(root, path, view.get("disk"))
        else:
            _bind(root, path, False)
    for path in view["mask"]:
        _tmpfs(root + path, "4k", readonly=True)
    os.chdir(root)
    if LIBC.syscall(155, b".", b".") != 0:  # pivot_root(".", "."), then detach the old root
        raise OSError(ctypes.get_errno(), "pivot_root failed")
    if LIBC.umount2(b".", 2) != 0:
        raise OSError(ctypes.get_errno(), "could not detach the old root")
    os.chdir("/")
    _mount(None, "/", None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV)


def _drop_capabilities():
    """Empty every capability set and lock the secure bits, so no exec regains one."""
    last = int(open("/proc/sys/kernel/cap_last_cap").read())
    for cap in range(last + 1):
        LIBC.prctl(24, cap, 0, 0, 0)  # PR_CAPBSET_DROP
    if LIBC.prctl(28, 0x2F, 0, 0, 0) != 0:  # PR_SET_SECUREBITS: NOROOT, NO_SETUID_FIXUP, locked
        raise OSError(ctypes.get_errno(), "could not lock the secure bits")
    LIBC.prctl(47, 4, 0, 0, 0)  # PR_CAP_AMBIENT_CLEAR_ALL
    header = (ctypes.c_uint32 * 2)(0x20080522, 0)
    if LIBC.syscall(126, ctypes.byref(header), ctypes.byref((ctypes.c_uint32 * 6)())) != 0:
        raise OSError(ctypes.get_errno(), "could not drop the capabilities")


def _report(view, record):
    text = ",".join(_json.encode_basestring_ascii(k) + ":" + v for k, v in record.items())
    try:
        os.write(view["fd"], ("{" + text + "}\n").encode())
    except OSError:
        pass


USAGE = (
    "usage: isolate_script VIEW COMMAND [ARG ...]: started only by shopkit's sandbox "
    "(sandbox/isolation.py), inside new namespaces; not a command for people"
)


def main():
    if len(sys.argv) < 3 or sys.argv[1] in ("-h", "--help"):
        print(USAGE, file=sys.stdout if sys.argv[1:2] in (["-h"], ["--help"]) else sys.stderr)
        sys.exit(0 if sys.argv[1:2] in (["-h"], ["--help"]) else 2)
    view = marshal.loads(binascii.a2b_base64(sys.argv[1]))  # from the trusted launcher
    nonce = _json.encode_basestring_ascii(view["nonce"])
    try:
        if os.getpid() != 1:
            raise OSError(0, "not the first process of a new PID namespace")
        _join(view)
        _build_root(view)
        _drop_capabilities()
    except OSError as err:
        reason = _json.encode_basestring_ascii(str(err.strerror or err))
        _report(view, {"nonce": nonce, "kind": '"isolation"', "ok": "false", "error": reason})
        os._exit(1)
    if view.get("probe"):
        _report(view, {"nonce": nonce, "kind": '"isolation"', "ok": "true"})
        os._exit(0)
    os.execv(sys.argv[2], sys.argv[2:])


if __name__ == "__main__":
    main()
