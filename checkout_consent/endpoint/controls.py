"""`serve-controls`: a loopback HTTP endpoint that plays the control agents (the request's
`model`) over the OpenAI chat-completions (`/v1/chat/completions`) and Anthropic messages
(`/v1/messages`) wire formats, so Inspect's own providers can be recorded without a real
model. A request it cannot answer gets a 4xx JSON error in the SDKs' shape; a bug in a
control is a 500 JSON error, never a traceback.
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
from checkout_consent.core.scenario import Scenario
from checkout_consent.endpoint.request import WireError, content_length, error_body, parse_body
from checkout_consent.endpoint.wire import anthropic as wire_anthropic
from checkout_consent.endpoint.wire import openai as wire_openai

HOST = "127.0.0.1"
FIXED_PORT = 47_823  # reference cassettes are recorded against this port; replay reuses it
READ_TIMEOUT_S = 30.0  # a client that stops sending mid-request gets a 408, not a thread


class PortUnavailable(ValueError):
    """serve-controls cannot listen on the port asked for (one line, exit non-zero)."""


def _scenario(header: str | None, registry: ControlRegistry, name: str) -> Scenario:
    """The scenario the request's run plays, from the header the suite's solver sends."""
    if not header:
        raise WireError(
            f"no {SCENARIO_HEADER} header: the controls play only runs of this "
            "suite's tasks, which send it"
        )
    try:
        scenario = Scenario.model_validate_json(header)
    except ValidationError as err:
        raise WireError(f"bad {SCENARIO_HEADER} header: {err.errors()[0]['msg']}") from None
    refusal = registry.refusal(name, scenario.world)
    if refusal is not None:
        raise WireError(refusal)
    return scenario


def _answer(
    registry: ControlRegistry, path: str, body: dict[str, Any], scenario_header: str | None
) -> tuple[str, Any]:
    """(content type, payload) for one request; payload is a dict or an SSE iterator."""
    try:
        name = body["model"]
        control = registry.get(name)
        registry.family_of(name)
    except KeyError as err:
        raise WireError(str(err)) from err
    scenario = _scenario(scenario_header, registry, name)
    if path.endswith("/chat/completions"):
        if body.get("stream"):
            raise WireError("streaming chat completions are not served; use -M streaming=false")
        msgs = _transcript(wire_openai.transcript, body)
        return "application/json", wire_openai.response(body, msgs, control(scenario, msgs))
    if path.endswith("/messages"):
        msgs = _transcript(wire_anthropic.transcript, body)
        message = wire_anthropic.response(body, msgs, control(scenario, msgs))
        if body.get("stream"):
            return "text/event-stream", wire_anthropic.events(message)
        return "application/json", message
    raise WireError(f"no such endpoint: {path}")


def _transcript(read: Callable[[dict[str, Any]], list[Any]], body: dict[str, Any]) -> list[Any]:
    """The control transcript of a request body; a message of the wrong shape is a 400."""
    try:
        return read(body)
    except (KeyError, TypeError, AttributeError, ValueError, RecursionError) as err:
        raise WireError(
            f"a message of the request is not of the wire format's shape ({type(err).__name__})"
        ) from None


def _handler(registry: ControlRegistry) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        timeout = READ_TIMEOUT_S

        def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
            try:
                raw = self._body()
                kind, payload = _answer(
                    registry,
                    self.path.split("?")[0],
                    parse_body(raw),
                    self.headers.get(SCENARIO_HEADER),
                )
                data = (
                    json.dumps(payload) if isinstance(payload, dict) else "".join(payload)
                ).encode()
            except WireError as err:
                return self._send(err.status, "application/json", error_body(str(err)))
            except Exception as err:  # a bug in a control: say so, keep serving
                message = f"the control failed: {type(err).__name__}"
                return self._send(500, "application/json", error_body(message, "api_error"))
            self._send(200, kind, data)

        def _body(self) -> bytes:
            try:
                length = content_length(self.headers.get("content-length"))
            except WireError:
                self.close_connection = True  # the body, if any, is never read
                raise
            try:
                raw = self.rfile.read(length)
            except TimeoutError:
                self.close_connection = True
                raise WireError("request body did not arrive in time", 408) from None
            if len(raw) < length:
                self.close_connection = True
                raise WireError(f"request body ended after {len(raw)} of {length} bytes")
            return raw

        def _send(self, status: int, kind: str, data: bytes) -> None:
            self.send_response(status)
            self.send_header("content-type", kind)
            self.send_header("content-length", str(len(data)))
            if self.close_connection:
                self.send_header("connection", "close")
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            return  # quiet: request lines would only clutter eval output

    return Handler


class ControlServer(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 1024  # a burst of concurrent connections waits, never reset

    def handle_error(self, request: Any, client_address: Any) -> None:
        return  # a client that hung up mid-answer: nothing to print, nothing to do

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.server_address[1]}"


@contextmanager
def serving(
    registry: ControlRegistry | None = None, port: int = FIXED_PORT
) -> Iterator[ControlServer]:
    """Serve the controls on 127.0.0.1:`port` (0: an ephemeral port) in a background thread."""
    if registry is None:
        from checkout_consent.families import control_registry

        registry = control_registry()
    server = _bind(port, registry)
    # polled every 50 ms, not the default 0.5 s: a stop waits at most one poll
    thread = threading.Thread(
        target=server.serve_forever, args=(0.05,), name="serve-controls", daemon=True
    )
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def _bind(port: int, registry: ControlRegistry) -> ControlServer:
    if not 0 <= port <= 65535:
        raise PortUnavailable(f"serve-controls: port {port} is not a TCP port (0-65535)")
    try:
        return ControlServer((HOST, port), _handler(registry))
    except OSError as err:
        why = "is in use" if err.errno == 98 else f"cannot be used ({err.strerror})"
        raise PortUnavailable(f"serve-controls: port {port} on {HOST} {why}") from None


def serve_forever(port: int = FIXED_PORT, announce: Callable[[str], None] = print) -> None:
    """Serve until interrupted (the `checkout-consent serve-controls` verb)."""
    with serving(port=port) as server:
        announce(
            f"serving controls on {server.url} (openai: {server.url}/v1, "
            f"anthropic: {server.url}); Ctrl-C stops"
        )
        sys.stdout.flush()
        try:
            threading.Event().wait()
        except KeyboardInterrupt:
            pass
