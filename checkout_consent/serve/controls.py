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

from pydantic import ValidationError

from checkout_consent.core.controls import SCENARIO_HEADER, ControlRegistry
from checkout_consent.core.family import Scenario
from checkout_consent.serve.wire import anthropic as wire_anthropic
from checkout_consent.serve.wire import openai as wire_openai

HOST = "127.0.0.1"
FIXED_PORT = 47_823  # reference cassettes are recorded against this port; replay reuses it


class WireError(ValueError):
    """A request the endpoint cannot answer (unknown control, unsupported option)."""


def _scenario(header: str | None, family: str) -> Scenario:
    """The scenario the request's run plays, from the header the suite's solver sends."""
    if not header:
        raise WireError(f"no {SCENARIO_HEADER} header: the controls play only runs of this "
                        "suite's tasks, which send it")
    try:
        scenario = Scenario.model_validate_json(header)
    except ValidationError as err:
        raise WireError(f"bad {SCENARIO_HEADER} header: {err.errors()[0]['msg']}") from None
    if scenario.family != family:
        raise WireError(f"control of {family} asked to play a {scenario.family} scenario")
    return scenario


def _answer(registry: ControlRegistry, path: str, body: dict[str, Any],
            scenario_header: str | None) -> tuple[str, Any]:
    """(content type, payload) for one request; payload is a dict or an SSE iterator."""
    try:
        name = str(body.get("model"))
        control, family = registry.get(name), registry.family_of(name)
    except KeyError as err:
        raise WireError(str(err)) from err
    scenario = _scenario(scenario_header, family)

    def policy(msgs: Any) -> Any:
        return control(scenario, msgs)

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
                kind, payload = _answer(registry, self.path.split("?")[0], json.loads(raw),
                                        self.headers.get(SCENARIO_HEADER))
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
        from checkout_consent.families import control_registry

        registry = control_registry()
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
