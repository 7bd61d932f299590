"""The page's server: a small ASGI app on loopback, run by uvicorn in a thread of its own.

Every request is a stranger's: the body is bounded, the form is parsed here (no multipart,
no framework), the turn's token must match, and the call is checked against the tool's
schema again. A refusal re-shows the turn with the one line why and the values typed."""

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
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from checkout_consent.runtime.human.desk import Answer, Desk
from checkout_consent.runtime.human.fields import Refused, parse_call
from checkout_consent.runtime.human.page import idle_page, turn_page

MAX_BODY = 512 * 1024
SENT = "Your answer is sent. If it was the run's last, the run is over."
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


def _call(desk: Desk, form: dict[str, str]) -> Answer | tuple[str, dict[str, Any]]:
    """The call the form makes: an answer sending it now (after any queued), or the call
    alone, to be added to the turn."""
    turn = desk.turn
    tool, then = form.pop("tool", ""), form.pop("then", "send")
    chosen = next((f for f in turn.forms if f.tool == tool), None) if turn else None
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


class _App:
    """The page's request handlers over one desk."""

    def __init__(self, desk: Desk) -> None:
        self.desk = desk

    def show(self, refusal: str = "", values: dict[str, str] | None = None) -> HTMLResponse:
        desk, turn = self.desk, self.desk.turn
        if turn is None:
            return _page(idle_page(desk, refusal), 409 if refusal else 200)
        return _page(turn_page(turn, desk.done, refusal, values), 422 if refusal else 200)

    async def index(self, request: Request) -> Response:
        return self.show()

    async def answer(self, request: Request, make: Any) -> Response:
        desk, form = self.desk, {}
        try:
            form = await _form(request)
            token = form.pop("token", "")
            made = make(desk, dict(form))
        except Refused as err:
            return self.show(str(err), form)
        if isinstance(made, tuple):  # a call added to the turn: the page shows it queued
            return self.show(desk.queue(token, made) or "")
        refusal = desk.answer(token, made)
        if refusal:
            return self.show(refusal)
        for _ in range(NEXT_TURN_WAIT):  # land on the next turn when it opens soon
            if desk.turn is not None or desk.stopped:
                return RedirectResponse("/", 303, headers=HEADERS)
            await asyncio.sleep(0.02)
        # No next turn yet: maybe the run's last answer, after which the server closes,
        # so this answer is the page itself (a redirect would meet a closed server).
        return _page(idle_page(desk, SENT, refresh=False))

    async def on_call(self, request: Request) -> Response:
        return await self.answer(request, _call)

    async def on_reply(self, request: Request) -> Response:
        return await self.answer(request, _reply)

    async def stop(self, request: Request) -> Response:
        self.desk.stop()
        return RedirectResponse("/", 303, headers=HEADERS)

    async def status(self, request: Request) -> Response:
        desk, turn = self.desk, self.desk.turn
        open_turn = None if turn is None else [turn.sample, turn.epoch, turn.number]
        body = {"turn": open_turn, "answered": len(desk.done), "stopped": desk.stopped}
        return JSONResponse(body, headers=HEADERS)


def app_for(desk: Desk) -> Starlette:
    """The page's ASGI app over `desk`."""
    app = _App(desk)
    routes = [
        Route("/", app.index),
        Route("/call", app.on_call, methods=["POST"]),
        Route("/reply", app.on_reply, methods=["POST"]),
        Route("/stop", app.stop, methods=["POST"]),
        Route("/status.json", app.status),
    ]
    return Starlette(routes=routes)


class PageServer:
    """The app served on 127.0.0.1 in a daemon thread; `url` once it listens."""

    def __init__(self, desk: Desk, port: int) -> None:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("127.0.0.1", port))
        except OSError as err:
            sock.close()
            raise OSError(
                f"human/web: cannot listen on 127.0.0.1:{port} ({err.strerror})"
            ) from None
        self.port = sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}/"
        config = uvicorn.Config(app_for(desk), log_level="warning", lifespan="off")
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [sock]}, daemon=True, name="human-page"
        )
        self._thread.start()
        deadline = time.monotonic() + 10
        while not self._server.started and time.monotonic() < deadline:
            time.sleep(0.01)

    def close(self) -> None:
        """Stop serving, letting a request in flight finish (at most 5 s)."""
        self._server.should_exit = True
        self._thread.join(timeout=5)
