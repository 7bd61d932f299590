"""The page's server: a small ASGI app on loopback, run by uvicorn in a thread of its own.

Every request is a stranger's: its Host must be a loopback name the page is served on
(DNS rebinding gets nothing), a POST from another origin is refused, the body is bounded
and parsed here, the turn's token must match for every change, and the call is checked
against the tool's schema again. Every form is answered with a redirect (a reload never
sends a form twice); a refusal is shown there once, beside its field."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from typing import Any
from urllib.parse import parse_qsl

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import (
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
)
from starlette.routing import Route

from checkout_consent.runtime.human.desk import GONE, Answer, Desk
from checkout_consent.runtime.human.fields import Refused, parse_call
from checkout_consent.runtime.human.page import idle_page, turn_page

MAX_BODY = 512 * 1024
GRACE = 10.0  # seconds a closing page waits at most for a watching browser to fetch the end page
NEXT_TURN_WAIT = 75  # 20 ms polls (1.5 s) for the next turn before the page is sent
HEADERS = {
    "Cache-Control": "no-store",
    "Content-Security-Policy": "default-src 'none'; "
    "style-src 'unsafe-inline'; script-src 'unsafe-inline'; connect-src 'self'; form-action 'self'",
}


async def _form(request: Request) -> dict[str, str]:
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise Refused(f"the form is larger than {MAX_BODY // 1024} KB")
    try:
        pairs = parse_qsl(body.decode("utf-8"), keep_blank_values=True, strict_parsing=False)
    except UnicodeDecodeError:
        raise Refused("the form is not UTF-8 text") from None
    form: dict[str, str] = {}
    for key, value in pairs:
        if key in form:
            raise Refused(f"{key[:60]!r} is sent twice")
        form[key] = value
    return form


def _page(html: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(html, status_code=status, headers=HEADERS)


def _refused(line: str) -> Response:
    """A request from a stranger site: one line, no page (so no token), nothing changed."""
    return PlainTextResponse(f"refused: {line}\n", 403, headers=HEADERS)


def _back() -> Response:
    """Post/redirect/get: a reload re-shows the page and never re-sends the form."""
    return RedirectResponse("/", 303, headers=HEADERS)


def _call(desk: Desk, form: dict[str, str]) -> Answer | tuple[str, dict[str, Any]]:
    """The call the form makes: an answer sending it now, or the call alone, to queue."""
    turn = desk.turn
    if turn is None:
        raise Refused(GONE)
    tool, then = form.pop("tool", ""), form.pop("then", "send")
    chosen = next((f for f in turn.forms if f.tool == tool), None)
    if chosen is None:
        raise Refused(f"{tool[:60]!r} is not a tool of this turn")
    if then not in ("send", "queue"):
        raise Refused("choose to call the tool now or to add the call to this turn")
    made = (tool, parse_call(chosen, form))
    return made if then == "queue" else Answer(calls=(made,))


def _reply(desk: Desk, form: dict[str, str]) -> Answer:
    if set(form) - {"text"}:
        raise Refused("a plain reply carries only its text")
    text = form.get("text", "")
    if len(text) > 20_000:
        raise Refused("the reply is longer than 20,000 characters")
    return Answer(text=text)


class Guard:
    """Only this page's own origin may use it: a request whose Host is not a loopback name
    the page is served on gets no page (DNS rebinding), and a POST whose Origin (or Fetch
    metadata) is another site's is refused before it is read (cross-site forms)."""

    def __init__(self, app: Any, hosts: tuple[str, ...]) -> None:
        self.app, self.hosts = app, hosts
        self.origins = tuple(f"http://{h}" for h in hosts)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            why = self.why(scope)
            if why:
                await _refused(why)(scope, receive, send)
                return
        await self.app(scope, receive, send)

    def why(self, scope: Any) -> str:
        head = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        host = head.get("host", "")
        if host.lower() not in self.hosts:
            return f"host {host[:80]!r} is not this page's (it is served as {self.hosts[0]})"
        if scope["method"] in ("GET", "HEAD"):
            return ""
        origin = head.get("origin")
        if origin is not None and origin.lower() not in self.origins:
            return f"a form from {origin[:80]!r}: only this page's own forms are answered"
        if head.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
            return "a form from another site: only this page's own forms are answered"
        return ""


class _App:
    """The page's request handlers over one desk."""

    def __init__(self, desk: Desk) -> None:
        self.desk = desk

    async def index(self, request: Request) -> Response:
        desk = self.desk
        desk.seen()
        turn, refusal = desk.turn, desk.take_refusal()
        if turn is None:
            return _page(idle_page(desk))
        return _page(turn_page(turn, desk, refusal))

    async def answer(self, request: Request, make: Any) -> Response:
        desk, form, token = self.desk, {}, ""
        desk.seen(shown=False)  # a closing server waits for the page this redirects to
        try:
            form = await _form(request)
            token = form.pop("token", "")
            made = make(desk, dict(form))
        except Refused as err:
            desk.refuse(token, str(err), err.field, form)
            return _back()
        if isinstance(made, tuple):  # a call added to the turn: the page shows it queued
            desk.refuse(token, desk.queue(token, made) or "", "", {})
            return _back()
        refusal = desk.answer(token, made)
        if refusal:
            desk.refuse(token, refusal, "", {})
            return _back()
        for _ in range(NEXT_TURN_WAIT):  # land on the next turn when it opens soon
            if desk.turn is not None or desk.stopped:
                break
            await asyncio.sleep(0.02)
        return _back()

    async def on_call(self, request: Request) -> Response:
        return await self.answer(request, _call)

    async def on_reply(self, request: Request) -> Response:
        return await self.answer(request, _reply)

    async def unqueue(self, request: Request) -> Response:
        try:
            form = await _form(request)
        except Refused as err:
            self.desk.refuse("", str(err), "", {})
            return _back()
        token = form.get("token", "")
        self.desk.refuse(token, self.desk.unqueue(token, form.get("index", "")) or "", "", {})
        return _back()

    async def stop(self, request: Request) -> Response:
        try:
            token = (await _form(request)).get("token", "")
        except Refused as err:
            return _refused(str(err))
        refusal = self.desk.stop(token)
        if refusal:
            return _refused(refusal)
        return _back()

    async def status(self, request: Request) -> Response:
        desk, turn = self.desk, self.desk.turn
        desk.seen(shown=False)
        open_turn = None if turn is None else [turn.sample, turn.epoch, turn.number]
        body = {
            "turn": open_turn,
            "answered": len(desk.done),
            "stopped": desk.stopped,
            "ended": len(desk.ended),
        }
        return JSONResponse(body, headers=HEADERS)


def app_for(desk: Desk, port: int) -> Any:
    """The page's ASGI app over `desk`, answering only as 127.0.0.1 or localhost on `port`."""
    app = _App(desk)
    routes = [
        Route("/", app.index),
        Route("/call", app.on_call, methods=["POST"]),
        Route("/reply", app.on_reply, methods=["POST"]),
        Route("/unqueue", app.unqueue, methods=["POST"]),
        Route("/stop", app.stop, methods=["POST"]),
        Route("/status.json", app.status),
    ]
    return Guard(Starlette(routes=routes), (f"127.0.0.1:{port}", f"localhost:{port}"))


class PageServer:
    """The app served on 127.0.0.1 in a daemon thread; `url` once it listens."""

    def __init__(self, desk: Desk, port: int) -> None:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("127.0.0.1", port))
            sock.listen(64)  # connections wait in the backlog until uvicorn serves them
        except OSError as err:
            sock.close()
            raise OSError(
                f"human/web: cannot listen on 127.0.0.1:{port} ({err.strerror})"
            ) from None
        self.port = sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}/"
        self.desk = desk
        config = uvicorn.Config(app_for(desk, self.port), log_level="warning", lifespan="off")
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [sock]}, daemon=True, name="human-page"
        )
        self._thread.start()
        deadline = time.monotonic() + 10
        while not self._server.started and time.monotonic() < deadline:
            time.sleep(0.01)

    def close(self) -> None:
        """Stop serving; a watching browser first gets the page that shows the run's end."""
        deadline = time.monotonic() + GRACE
        while self.desk.unseen() and time.monotonic() < deadline:
            time.sleep(0.02)
        self._server.should_exit = True
        self._thread.join(timeout=5)
