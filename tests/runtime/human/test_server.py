"""The page's server, driven as a stranger would: an answer travels to the provider only
when it fits the open turn and its tool's schema; anything else is refused in one line
and changes nothing. Every form is answered with a redirect (post/redirect/get), so a
reload never sends it again; another site (a foreign Host or Origin, a form without the
turn's token) gets nothing."""

from __future__ import annotations

import http.client
import subprocess
import sys
import urllib.parse
import urllib.request
from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from checkout_consent.runtime.human import server as page_server
from checkout_consent.runtime.human.desk import Desk, Shown, Turn
from checkout_consent.runtime.human.fields import Field, Form
from checkout_consent.runtime.human.server import MAX_BODY, PageServer, app_for

FORM = Form(
    "set_price",
    "Set a product's price.",
    (
        Field("product_id", "string", True, False, "The product."),
        Field("price", "number", True, False, "Dollars."),
    ),
)
PORT = 8765
BASE = f"http://127.0.0.1:{PORT}"


@pytest.fixture
def open_turn(monkeypatch: pytest.MonkeyPatch) -> tuple[Desk, Turn, TestClient]:
    # no provider opens a next turn here: an answered form would wait its 1.5 s for nothing
    # (the browser tests land on the next turn through that wait)
    monkeypatch.setattr(page_server, "NEXT_TURN_WAIT", 0)
    desk = Desk()
    turn = Turn(
        "s-1", 1, 1, (Shown("system", "You run a shop."), Shown("user", "Day 1.")), (FORM,), None
    )
    desk.open(turn)
    return desk, turn, TestClient(app_for(desk, PORT), base_url=BASE)


def _refusal(html: str) -> str:
    start = html.index('<p id="refusal" role="alert">') + len('<p id="refusal" role="alert">')
    return html[start : html.index("</p>", start)].split(" (<a href=")[0]


def _post(client: TestClient, path: str, data: dict[str, str]) -> str:
    """POST a form: the answer is a redirect to the page; the page it leads to."""
    response = client.post(path, data=data, follow_redirects=False)
    assert response.status_code == 303 and response.headers["location"] == "/"
    return client.get("/").text


def test_page__shows_the_prompt_the_conversation_and_a_labelled_form_per_tool(open_turn) -> None:
    _, turn, client = open_turn
    html = client.get("/").text
    assert "You run a shop." in html and "Day 1." in html
    assert '<label for="set_price.price">price <span class="req">(required)</span>' in html
    assert f'name="token" value="{turn.token}"' in html
    assert "http" not in html.replace("http-equiv", "")  # no asset from anywhere


def test_call__a_valid_form_answers_the_turn_with_a_typed_call(open_turn) -> None:
    desk, turn, client = open_turn
    form = {"token": turn.token, "tool": "set_price", "arg.product_id": "P1", "arg.price": "4"}
    page = _post(client, "/call", form)
    # no next turn opens here: the page it lands on says the answer was sent
    assert "Your answer is sent." in page and 'id="state"' in page
    answer = turn.future.result(timeout=1)
    assert answer.calls == (("set_price", {"product_id": "P1", "price": 4}),)
    assert desk.turn is None and len(desk.done) == 1


@pytest.mark.parametrize(
    "form, line, about",
    [
        (
            {"tool": "set_price", "arg.product_id": "P1", "arg.price": "four"},
            "price: &#x27;four&#x27; is not a number",
            "price",
        ),
        (
            {"tool": "pay_invoice", "arg.product_id": "P1"},
            "&#x27;pay_invoice&#x27; is not a tool of this turn",
            "",
        ),
        ({"tool": "set_price", "arg.product_id": "P1"}, "price: required", "price"),
        (
            {"tool": "set_price", "arg.product_id": "P1", "arg.price": "1", "arg.x": "1"},
            "&#x27;arg.x&#x27; is not an argument of set_price",
            "",
        ),
    ],
)
def test_call__a_malformed_form_is_refused_beside_its_field_and_nothing_is_sent(
    open_turn, form: dict[str, str], line: str, about: str
) -> None:
    desk, turn, client = open_turn
    page = _post(client, "/call", {"token": turn.token, **form})
    assert _refusal(page) == line
    if about:  # the line stands beside the field too, and the field is marked invalid
        assert f'<p class="error" id="set_price.{about}.error">{line}</p>' in page
        assert f'id="set_price.{about}" aria-invalid="true"' in page
    if form["tool"] == "set_price":  # the values typed are kept
        assert "P1</textarea>" in page
    assert desk.turn is turn and not turn.future.done()
    assert 'id="refusal"' not in client.get("/").text  # shown once: a reload is clean


def test_call__a_stale_token_or_a_second_answer_is_refused(open_turn) -> None:
    desk, turn, client = open_turn
    form = {"tool": "set_price", "arg.product_id": "P1", "arg.price": "4"}
    stale = _post(client, "/call", {"token": "old", **form})
    assert "that turn is no longer open" in _refusal(stale) and desk.turn is turn
    _post(client, "/call", {"token": turn.token, **form})
    again = _post(client, "/call", {"token": turn.token, **form})
    assert "that turn is no longer open" in again and len(desk.done) == 1


def test_call__a_repeated_key_or_an_oversized_body_is_refused(open_turn) -> None:
    desk, turn, client = open_turn
    twice = f"token={turn.token}&tool=set_price&arg.price=1&arg.price=2&arg.product_id=P"
    headers = {"content-type": "application/x-www-form-urlencoded"}
    client.post("/call", content=twice, headers=headers, follow_redirects=False)
    assert _refusal(client.get("/").text) == "&#x27;arg.price&#x27; is sent twice"
    client.post("/call", content="x=" + "a" * MAX_BODY, headers=headers, follow_redirects=False)
    assert _refusal(client.get("/").text) == "the form is larger than 512 KB"
    assert desk.turn is turn and not turn.future.done()


def test_reply__a_plain_reply_answers_with_text_and_no_call(open_turn) -> None:
    _, turn, client = open_turn
    _post(client, "/reply", {"token": turn.token, "text": "Done for today."})
    assert turn.future.result(timeout=1).text == "Done for today."
    assert turn.future.result().calls == ()


def test_stop__cancels_the_open_turn_and_the_page_says_how_to_resume(open_turn) -> None:
    desk, turn, client = open_turn
    page = _post(client, "/stop", {"token": turn.token})
    assert turn.future.cancelled() and desk.stopped
    assert "Run the same command again to resume it." in page
    status = client.get("/status.json").json()
    assert status == {"turn": None, "answered": 0, "stopped": True, "ended": 0}


def test_stop__without_the_turns_token_is_refused_and_changes_nothing(open_turn) -> None:
    desk, turn, client = open_turn
    for form in ({}, {"token": "guess"}):
        response = client.post("/stop", data=form, follow_redirects=False)
        assert response.status_code == 403 and response.text.startswith("refused: ")
    assert not desk.stopped and desk.turn is turn and not turn.future.done()


def test_call__calls_added_to_a_turn_are_sent_first_and_in_order(open_turn) -> None:
    desk, turn, client = open_turn
    base = {"token": turn.token, "tool": "set_price", "arg.price": "1"}
    page = _post(client, "/call", {**base, "arg.product_id": "A", "then": "queue"})
    assert "Calls in this turn so far" in page and "set_price(product_id=&#x27;A&#x27;" in page
    assert not turn.future.done()
    _post(client, "/call", {**base, "arg.product_id": "B", "then": "send"})
    sent = [args["product_id"] for _, args in turn.future.result(timeout=1).calls]
    assert sent == ["A", "B"] and desk.turn is None
    bad = _post(client, "/call", {**base, "arg.product_id": "C", "then": "later"})
    assert "that turn is no longer open" in bad  # nothing queued to a closed turn


def test_queue__a_reload_queues_nothing_and_a_removed_call_is_not_sent(open_turn) -> None:
    desk, turn, client = open_turn
    base = {"token": turn.token, "tool": "set_price", "arg.price": "1", "then": "queue"}
    for product in ("A", "B", "C"):
        _post(client, "/call", {**base, "arg.product_id": product})
    for _ in range(3):  # reloads re-show the page, never re-send its form
        client.get("/")
    assert [a["product_id"] for _, a in turn.queued] == ["A", "B", "C"]
    page = _post(client, "/unqueue", {"token": turn.token, "index": "1"})
    assert "product_id=&#x27;B&#x27;" not in page
    gone = _post(client, "/unqueue", {"token": turn.token, "index": "7"})
    assert "that call is not in this turn" in _refusal(gone)
    _post(client, "/unqueue", {"token": "old", "index": "0"})  # a stale page removes nothing
    _post(client, "/reply", {"token": turn.token, "text": ""})
    sent = [args["product_id"] for _, args in turn.future.result(timeout=1).calls]
    assert sent == ["A", "C"]


def test_call__an_answer_that_opens_a_next_turn_lands_on_it(open_turn) -> None:
    desk, turn, client = open_turn
    nxt = Turn("s-1", 1, 2, (Shown("user", "Day 2."),), (FORM,), None)
    turn.future.add_done_callback(lambda _: desk.open(nxt))
    assert "Day 2." in _post(client, "/reply", {"token": turn.token, "text": "ok"})


@pytest.fixture
def served() -> Iterator[tuple[Desk, Turn, int]]:
    """The page on a real loopback socket (uvicorn in its thread), one turn open."""
    desk = Desk()
    turn = Turn("s-1", 1, 1, (Shown("user", "Day 1."),), (FORM,), None)
    desk.open(turn)
    server = PageServer(desk, 0)
    try:
        yield desk, turn, server.port
    finally:
        server.close()


def _request(port: int, method: str, path: str, headers: dict[str, str], body: str = ""):  # type: ignore[no-untyped-def]
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        connection.request(method, path, body=body or None, headers=headers)
        response = connection.getresponse()
        return response.status, response.read().decode()
    finally:
        connection.close()


FORM_TYPE = {"Content-Type": "application/x-www-form-urlencoded"}


def test_guard__a_foreign_host_gets_no_page_and_no_token(served) -> None:
    desk, turn, port = served
    for host in (f"evil.example:{port}", "evil.example", f"127.0.0.1:{port + 1}", ""):
        status, text = _request(port, "GET", "/", {"Host": host})
        assert status == 403 and text.startswith("refused: host ")
        assert turn.token not in text
    status, _ = _request(port, "GET", "/status.json", {"Host": f"evil.example:{port}"})
    assert status == 403
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"LOCALHOST:{port}"):
        status, text = _request(port, "GET", "/", {"Host": host})
        assert status == 200 and turn.token in text


@pytest.mark.parametrize(
    "headers",
    [
        {"Host": "evil.example:{port}", "Origin": "http://evil.example:{port}"},
        {"Host": "127.0.0.1:{port}", "Origin": "http://evil.example"},
        {"Host": "127.0.0.1:{port}", "Origin": "null"},
        {"Host": "127.0.0.1:{port}", "Sec-Fetch-Site": "cross-site"},
    ],
)
def test_guard__a_call_from_another_site_is_refused_and_nothing_is_sent(
    served, headers: dict[str, str]
) -> None:
    desk, turn, port = served
    form = {"token": turn.token, "tool": "set_price", "arg.product_id": "P", "arg.price": "1"}
    sent = {k: v.format(port=port) for k, v in headers.items()} | FORM_TYPE
    for path in ("/call", "/reply", "/stop", "/unqueue"):
        status, text = _request(port, "POST", path, sent, urllib.parse.urlencode(form))
        assert status == 403 and text.startswith("refused: ") and "\n" not in text.strip()
    assert desk.turn is turn and not turn.future.done() and not desk.stopped


def test_guard__the_pages_own_form_is_answered_and_a_tokenless_stop_is_not(served) -> None:
    desk, turn, port = served
    own = {"Host": f"127.0.0.1:{port}", "Origin": f"http://127.0.0.1:{port}"} | FORM_TYPE
    status, text = _request(port, "POST", "/stop", own, "")
    assert status == 403 and "stop the run from an open turn" in text and not desk.stopped
    status, _ = _request(port, "POST", "/stop", own, urllib.parse.urlencode({"token": "x"}))
    assert status == 403 and not desk.stopped and desk.turn is turn
    form = {"token": turn.token, "tool": "set_price", "arg.product_id": "P", "arg.price": "1"}
    status, _ = _request(port, "POST", "/call", own, urllib.parse.urlencode(form))
    assert status == 303 and turn.future.result(timeout=5).calls[0][0] == "set_price"
    assert _request(port, "GET", "/", own)[0] == 200  # shown: the server closes at once


LAST_TURN = """
import sys
from checkout_consent.runtime.human.desk import Shown, Turn
from checkout_consent.runtime.human.provider import desk_on
desk, server = desk_on(0)
turn = Turn("s-1", 1, 1, (Shown("user", "Day 1."),), (), None)
desk.open(turn)
print(server.url, turn.token, flush=True)
turn.future.result(timeout=60)
sys.exit(0)  # the run ends the moment its last turn is answered
"""


def test_reply__the_runs_last_answer_gets_its_page_before_the_process_exits() -> None:
    """A person's last answer ends the run and the process; the page server is closed at
    exit only after the page the answer redirects to is sent (it was cut: an empty reply,
    or the browser's "site can't be reached")."""
    run = subprocess.Popen(
        [sys.executable, "-c", LAST_TURN], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert run.stdout is not None
        url, token = run.stdout.readline().split()
        data = urllib.parse.urlencode({"token": token, "text": "Done."}).encode()
        with urllib.request.urlopen(url + "reply", data, timeout=60) as response:
            assert response.status == 200 and response.url == url  # redirected to the page
            assert "Your answer is sent." in response.read().decode()
        assert run.wait(timeout=30) == 0
    finally:
        run.kill()
