"""`serve-controls`: a loopback HTTP endpoint that plays the control agents over the OpenAI
chat-completions and Anthropic messages wire formats, so Inspect's own openai and
anthropic providers (and their HTTP traffic) can be recorded without a real model.

    POST /v1/chat/completions   (openai provider:    base_url http://127.0.0.1:PORT/v1)
    POST /v1/messages           (anthropic provider: base_url http://127.0.0.1:PORT)

The request's `model` names the control, e.g. `storefront-oracle`.
"""

from __future__ import annotations

import json
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from checkout_consent.core import wire_anthropic, wire_openai
from checkout_consent.core.controls import ControlRegistry

HOST = "127.0.0.1"
FIXED_PORT = 47_823  # reference cassettes are recorded against this port; replay reuses it


class WireError(ValueError):
    """A request the endpoint cannot answer (unknown control, unsupported option)."""


def _answer(registry: ControlRegistry, path: str, body: dict[str, Any]) -> tuple[str, Any]:
    """(content type, payload) for one request; payload is a dict or an SSE iterator."""
    try:
        policy = registry.get(str(body.get("model")))
    except KeyError as err:
        raise WireError(str(err)) from err
    if path.endswith("/chat/completions"):
        if body.get("stream"):
            raise WireError("streaming chat completions are not served; use -M streaming=false")
        msgs = wire_openai.transcript(body)
        return "application/json", wire_openai.response(body, msgs, policy(msgs))
    if path.endswith("/messages"):
        msgs = wire_anthropic.transcript(body)
        message = wire_anthropic.response(body, msgs, policy(msgs))
        if body.get("stream"):
            return "text/event-stream", wire_anthropic.events(message)
        return "application/json", message
    raise WireError(f"no such endpoint: {path}")


def _handler(registry: ControlRegistry) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
            raw = self.rfile.read(int(self.headers.get("content-length") or 0))
            try:
                kind, payload = _answer(registry, self.path.split("?")[0], json.loads(raw))
            except (WireError, ValueError) as err:
                error = {"type": "error", "error": {"type": "invalid_request_error",
                                                    "message": str(err)}}
                return self._send(400, "application/json", json.dumps(error).encode())
            if isinstance(payload, dict):
                return self._send(200, kind, json.dumps(payload).encode())
            self._send(200, kind, "".join(payload).encode())

        def _send(self, status: int, kind: str, data: bytes) -> None:
            self.send_response(status)
            self.send_header("content-type", kind)
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            return  # quiet: request lines would only clutter eval output

    return Handler


class ControlServer(ThreadingHTTPServer):
    daemon_threads = True

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.server_address[1]}"


@contextmanager
def serving(registry: ControlRegistry | None = None, port: int = FIXED_PORT
            ) -> Iterator[ControlServer]:
    """Serve the controls on 127.0.0.1:`port` (0: an ephemeral port) in a background thread."""
    if registry is None:
        from checkout_consent.families import CONTROLS

        registry = CONTROLS
    server = ControlServer((HOST, port), _handler(registry))
    thread = threading.Thread(target=server.serve_forever, name="serve-controls", daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def serve_forever(port: int = FIXED_PORT, announce: Callable[[str], None] = print) -> None:
    """Serve until interrupted (the `checkout-consent serve-controls` verb)."""
    with serving(port=port) as server:
        announce(f"serving controls on {server.url} (openai: {server.url}/v1, "
                 f"anthropic: {server.url}); Ctrl-C stops")
        sys.stdout.flush()
        try:
            threading.Event().wait()
        except KeyboardInterrupt:
            pass
