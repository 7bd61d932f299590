"""The program a build runs under: one stdlib-only file, run as `python -I -S -B -c`.

A trusted supervisor reads the job from stdin, becomes a child subreaper and forks. The
child confines itself (new session, resource limits, Landlock: writes only inside the
build, no TCP, no signals outside), imports the build and evaluates each probe, writing
one nonce-tagged JSON line per result to the result pipe. The supervisor enforces the
deadline and, whatever happened, kills every process the build left behind.

Modes (the job's `mode`): probes (none), `cli` or `python` (one command, its output in a
memfd), `exec` (any command: the checkout-consent sandbox's exec, stdin and output in
memfds). A `stdio` job comes through a sandbox's exec (`remote.py`): base64 on stdin, the
files in the job (written to a fresh `run-<nonce>/build` here, removed after), the records
gathered in a memfd and the first 8 MiB of them written to stdout at the end.
"""

# The C modules, not `signal` and `json`: those import enum, re and functools, about 6 ms
# of every launch (measured with -X importtime) for three functions and four constants.
import _json as _cjson
import _signal as signal
import binascii
import builtins
import ctypes
import marshal
import os
import resource
import sys
import time

MODULES = ("money", "db", "orders", "reports", "cli")
MAX_RECORDS = 8 * 1024 * 1024  # bytes of records a stdio job reports (sandbox.MAX_RESULT_BYTES)
# Captured before any build code runs: a build may patch builtins or modules, not these.
_BUILTINS = dict(builtins.__dict__)
_eval, _dict, _str, _int, _type = eval, dict, str, int, type
_setitimer, _write, _quote = signal.setitimer, os.write, _cjson.encode_basestring_ascii
_name, _list = type.__dict__["__name__"].__get__, list
_WRITE_RIGHTS = (1 << 1) | sum(1 << i for i in range(4, 13))  # WRITE_FILE, REMOVE_*, MAKE_*


class ProbeTimeout(BaseException):
    pass


def _landlock(build):
    """Allow writes only beneath `build` (and to /dev/null); deny TCP and outside signals."""
    libc = ctypes.CDLL(None, use_errno=True)
    abi = libc.syscall(444, None, 0, 1)
    if abi < 1:
        return False
    rights = _WRITE_RIGHTS | ((1 << 13) if abi >= 2 else 0) | ((1 << 14) if abi >= 3 else 0)
    fields = [rights, 3 if abi >= 4 else 0, 3 if abi >= 6 else 0]
    size = 8 * (3 if abi >= 6 else 2 if abi >= 4 else 1)
    attr = (ctypes.c_uint64 * 3)(*fields)
    ruleset = libc.syscall(444, ctypes.byref(attr), size, 0)
    if ruleset < 0:
        return False
    file_rights = (1 << 1) | ((1 << 14) if abi >= 3 else 0)
    for path, allowed in ((build, rights), ("/dev/null", file_rights)):
        fd = os.open(path, os.O_PATH)
        rule = (ctypes.c_uint8 * 12).from_buffer_copy(
            allowed.to_bytes(8, "little") + fd.to_bytes(4, "little", signed=True)
        )
        libc.syscall(445, ruleset, 1, ctypes.byref(rule), 0)
        os.close(fd)
    libc.prctl(38, 1, 0, 0, 0)  # PR_SET_NO_NEW_PRIVS
    return libc.syscall(446, ruleset, 0) == 0


def _limits(job):
    mib = 1024 * 1024
    for which, value in (
        (resource.RLIMIT_AS, job["memory_mib"] * mib),
        (resource.RLIMIT_FSIZE, job["file_mib"] * mib),
        (resource.RLIMIT_CPU, job["cpu_s"]),
        (resource.RLIMIT_CORE, 0),
    ):
        resource.setrlimit(which, (value, value))


def _encode(value, depth=0, _isinstance=isinstance, _type=type, _repr=float.__repr__):
    if depth > 12:
        return ["deep"]
    if value is None or _isinstance(value, bool):
        return ["none"] if value is None else ["bool", value is True]
    if _type(value) is int:
        return ["int", _int.__repr__(value)]
    if _type(value) is float:
        return ["float", _repr(value)]
    if _type(value) is str:
        return ["str", _str.__str__(value)[:20000]]
    if _type(value) in (list, tuple):
        return [_name(_type(value)), [_encode(v, depth + 1) for v in _list(value)[:1000]]]
    if _type(value) is dict:
        return [
            "dict",
            [
                [_encode(k, depth + 1), _encode(v, depth + 1)]
                for k, v in _list(_dict.items(value))[:1000]
            ],
        ]
    return ["other", _name(_type(value))]


def _json(value, _isinstance=isinstance):
    """JSON for records (str, int, bool, None, lists, str-keyed dicts) without the json
    module or any patchable builtin."""
    if value is None or value is True or value is False:
        return {None: "null", True: "true", False: "false"}[value]
    if _type(value) is str:
        return _quote(value)
    if _type(value) is int:
        return _int.__repr__(value)
    if _type(value) is list:
        return "[" + ",".join([_json(v) for v in value]) + "]"
    return "{" + ",".join([_quote(k) + ":" + _json(v) for k, v in _dict.items(value)]) + "}"


def _restore():
    _dict.update(builtins.__dict__, _BUILTINS)


def _cli(args):
    """Run `python -m shopkit.cli ARGS` in process: (exit code, stdout)."""
    import contextlib
    import io
    import runpy

    out, code = io.StringIO(), 0
    saved = sys.argv
    sys.argv = ["shopkit", *args]
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            runpy.run_module("shopkit.cli", run_name="__main__", alter_sys=False)
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
    finally:
        sys.argv = saved
    return ("cli", code, out.getvalue()[:20000])


def _command(job, emit):
    """Run the CLI or a snippet with stdout and stderr going to the output file."""
    import runpy
    import traceback

    os.dup2(job["out_fd"], 1)
    os.dup2(job["out_fd"], 2)
    _confine(job)
    sys.stdout.reconfigure(line_buffering=True)
    code = 0
    try:
        if job["mode"] == "cli":
            sys.argv = ["shopkit", *job["argv"]]
            runpy.run_module("shopkit.cli", run_name="__main__", alter_sys=True)
        else:
            exec(compile(job["code"], "<snippet>", "exec"), {"__name__": "__main__"})
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
    except BaseException as err:
        traceback.print_exception(type(err), err, err.__traceback__.tb_next)
        code = 1
    sys.stdout.flush()
    sys.stderr.flush()
    emit({"kind": "exit", "code": code})


def _confine(job):
    os.setsid()
    try:  # at the memory bound the kernel kills the build first, never the supervisor
        os.write(os.open("/proc/self/oom_score_adj", os.O_WRONLY | os.O_CLOEXEC), b"1000")
    except OSError:
        pass
    _limits(job)
    landlocked = _landlock(job["build"])
    os.chdir(job["build"])
    sys.path.insert(0, job["build"])
    return landlocked


def _import_build(landlocked, emit):
    """The probes' namespace (the five modules, `date`, the CLI runner), or None."""
    import datetime
    import importlib
    import traceback

    space = {"date": datetime.date}
    try:
        for name in MODULES:
            space[name] = importlib.import_module("shopkit." + name)
    except BaseException:
        _restore()
        emit(
            {
                "kind": "import",
                "ok": False,
                "error": traceback.format_exc(limit=3)[-2000:],
                "landlock": landlocked,
            }
        )
        return None
    _restore()
    space["cli"] = _cli  # the probes' CLI runner, not the module
    emit({"kind": "import", "ok": True, "landlock": landlocked})
    return space


def _child(job, emit):
    space = _import_build(_confine(job), emit)
    if space is None:
        return
    for probe in job["probes"]:
        _setitimer(signal.ITIMER_REAL, job["probe_s"])
        failed = None
        try:
            raw = _eval(probe["expr"], _dict(space))
        except ProbeTimeout:
            failed = ["timeout"]
        except BaseException as err:  # the build's exception is the observation
            failed = ["raised", _name(_type(err)), _str.__str__(_str(err))[:300]]
        finally:
            _setitimer(signal.ITIMER_REAL, 0)
            _restore()
        emit({"kind": "probe", "name": probe["name"], "value": failed or _encode(raw)})
    emit({"kind": "done"})


def _alarm(signum, frame):
    raise ProbeTimeout()


def _children(me):
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as handle:
                    stat = handle.read()
            except OSError:
                continue
            if int(stat[stat.rindex(b")") + 2 :].split()[1]) == me:
                found.append(int(entry))
    return found


def _sweep(child):
    """Kill the build's session and every orphan the kernel hands back to us."""
    me = os.getpid()
    end = time.monotonic() + 2.0
    while time.monotonic() < end:
        for target in [-child, *_children(me)]:
            try:
                os.kill(target, signal.SIGKILL)
            except OSError:
                pass
        try:
            while os.waitpid(-1, os.WNOHANG)[0]:
                pass
        except ChildProcessError:
            return
        time.sleep(0.002)


def _wait(child, deadline_s):
    """(timed out, exit status) of the build's process; negative status: killed by signal."""
    end = time.monotonic() + deadline_s
    while time.monotonic() < end:
        pid, status = os.waitpid(child, os.WNOHANG)
        if pid:
            return False, os.waitstatus_to_exitcode(status)
        time.sleep(0.002)
    return True, None


def _exec(job, emit):
    """Run any command (`argv`) confined, its stdin and output in the supervisor's memfds."""
    for target in (0, 1, 2):
        os.dup2(job["fds"][target], target)
    os.set_inheritable(job["result_fd"], False)  # the command never sees the result pipe
    _confine(job)
    try:
        os.chdir(job["cwd"])
        os.execvpe(job["argv"][0], job["argv"], job["env"])
    except OSError as err:
        os.write(2, _str.encode(f"{job['argv'][0]}: {err.strerror}\n"))
        os._exit(127)


def _stdio(job):
    """A job handed over by a sandbox's exec: the records go to our stdout (the build's
    output goes nowhere), and the files arrive in the job, written to a fresh directory."""
    null = os.open("/dev/null", os.O_RDWR)
    for target in (0, 1, 2):
        os.dup2(null, target)
    run = os.path.join(os.getcwd(), "run-" + job["nonce"])
    job["build"] = build = os.path.join(run, "build")
    job["output"] = os.path.join(run, "output.txt")
    for name, data in job.pop("files").items():
        if name.startswith("/") or ".." in name.split("/"):
            continue  # the launcher refuses these first; never written outside the run
        path = os.path.join(build, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as handle:
            handle.write(data if _type(data) is bytes else _str.encode(data))
    return run


def _remove(top):
    for root, dirs, files in os.walk(top, topdown=False):
        for name in files + dirs:
            path = os.path.join(root, name)
            try:
                os.rmdir(path) if name in dirs and not os.path.islink(path) else os.unlink(path)
            except OSError:
                pass
    try:
        os.rmdir(top)
    except OSError:
        pass


def _collected(job, emit, run):
    """What the supervisor reports after the build is gone: a command's output or an
    exec's stdout and stderr (base64, exact bytes)."""
    if "out_fd" in job:  # a command's output: a memfd, never on the build's full disk
        text = os.pread(job["out_fd"], 1 << 20, 0).decode("utf-8", "replace")
        emit({"kind": "output", "text": text, "build": job["build"]})
    for index, name in enumerate(("stdout", "stderr") if "fds" in job else ()):
        data = os.pread(job["fds"][index + 1], job["capture"], 0)
        emit({"kind": name, "data": _str(binascii.b2a_base64(data, newline=False), "ascii")})


def _prepare(job):
    """The stdio job's files and result fd, a command's or an exec's memfds; the run
    directory."""
    run = None
    if job.get("stdio"):  # records gather in a file, the first MAX_RECORDS go to stdout
        job["stdout_fd"], job["result_fd"] = os.dup(1), os.memfd_create("records")
        run = _stdio(job)
    if job.get("mode") in ("cli", "python"):
        job["out_fd"] = os.memfd_create("output")
    if job.get("mode") == "exec":
        job["fds"] = [os.memfd_create(n) for n in ("stdin", "stdout", "stderr")]
        os.write(job["fds"][0], job.get("input") or b"")
        os.lseek(job["fds"][0], 0, 0)
    return run


def main():
    raw = sys.stdin.buffer.read()  # from the trusted launcher, not the build
    job = marshal.loads(raw if raw[:1] in (b"{", b"\xfb") else binascii.a2b_base64(raw))
    ctypes.CDLL(None).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
    run = _prepare(job)
    fd, nonce = job["result_fd"], job["nonce"]

    def emit(record):
        _write(fd, _str.encode(_json({"nonce": nonce, **record}) + "\n"))

    child = os.fork()
    if child == 0:
        if "stdout_fd" in job:
            os.close(job["stdout_fd"])  # the build writes records only where they are capped
        signal.signal(signal.SIGALRM, _alarm)
        try:
            {"exec": _exec, "cli": _command, "python": _command}.get(job.get("mode"), _child)(
                job, emit
            )
            os._exit(0)
        finally:  # the harness failed in the build's process: never a success
            os._exit(1)
    timed_out, status = _wait(child, job["deadline_s"])
    _sweep(child)
    try:
        _collected(job, emit, run)
        emit({"kind": "ended", "timed_out": timed_out, "status": status})
    except OSError:
        pass
    if run is not None:
        _remove(run)
        _forward(job["result_fd"], job["stdout_fd"])


def _forward(source, target):
    done = 0
    while done < MAX_RECORDS:
        chunk = os.pread(source, min(65536, MAX_RECORDS - done), done)
        if not chunk:
            return
        os.write(target, chunk)
        done += len(chunk)


if __name__ == "__main__":
    if sys.argv[1:] or sys.stdin.isatty():  # run by hand (`python -m ... --help`)
        sys.stdout.write(
            "usage: the shopkit sandbox's worker, launched by sandbox.py with its "
            "job on stdin (marshal, or its base64); not a command to run by hand\n"
        )
        sys.exit(0 if sys.argv[1:] in (["-h"], ["--help"]) else 2)
    main()
