"""A loopback stand-in for llama-server that serves recorded response bytes: each run unit
(the `x-cc-run-unit` header every request carries) gets its own queue of recorded replies,
served in order, byte for byte; `HANG` holds the request open until the server stops (a
server that stopped answering). Every request body it was sent is kept for the test."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

TRAFFIC = Path(__file__).with_name("traffic.json")  # written by capture.py from a real server
HANG = "hang"


def recorded(name: str) -> dict[str, Any]:
    """One recorded exchange of traffic.json: its status, content type and body text."""
    exchange: dict[str, Any] = json.loads(TRAFFIC.read_text())["exchanges"][name]
    return exchange


class Fake(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, script: Mapping[str, Sequence[str]]) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.script = {unit: list(names) for unit, names in script.items()}
        self.requests: list[dict[str, Any]] = []
        self.stopping = threading.Event()
        self.props: dict[str, Any] | None = None  # what GET /props answers (None: 404)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"


class Handler(BaseHTTPRequestHandler):
    server: Fake

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass

    def do_GET(self) -> None:
        data = json.dumps(self.server.props).encode() if self.server.props else b"{}"
        self.send_response(200 if self.path == "/props" and self.server.props else 404)
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("content-length") or 0))
        self.server.requests.append(json.loads(body))
        queue = self.server.script.get(self.headers.get("x-cc-run-unit", ""), [])
        name = queue.pop(0) if queue else None
        if name == HANG:
            self.server.stopping.wait(60)
            return
        if name is None:
            exchange = {"status": 500, "content_type": "application/json", "body": "{}"}
        else:
            exchange = recorded(name)
        data = exchange["body"].encode()
        self.send_response(exchange["status"])
        self.send_header("content-type", exchange["content_type"])
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


@contextmanager
def serving(script: Mapping[str, Sequence[str]]) -> Iterator[Fake]:
    """The fake on a free loopback port for the block, then stopped (hung requests freed)."""
    fake = Fake(script)
    thread = threading.Thread(target=fake.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield fake
    finally:
        fake.stopping.set()
        fake.shutdown()
        fake.server_close()
