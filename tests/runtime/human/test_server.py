"""The page's server, driven as a stranger would: an answer travels to the provider only
when it fits the open turn and its tool's schema; anything else is refused in one line
and changes nothing."""

from __future__ import annotations

import subprocess
import sys
import urllib.parse
import urllib.request
from html import escape

import pytest
from starlette.testclient import TestClient

from checkout_consent.runtime.human.desk import Desk, Shown, Turn
from checkout_consent.runtime.human.fields import Field, Form
from checkout_consent.runtime.human.server import MAX_BODY, SENT, app_for

FORM = Form(
    "set_price",
    "Set a product's price.",
    (
        Field("product_id", "string", True, False, "The product."),
        Field("price", "number", True, False, "Dollars."),
    ),
)


@pytest.fixture
def open_turn() -> tuple[Desk, Turn, TestClient]:
    desk = Desk()
    turn = Turn(
        "s-1", 1, 1, (Shown("system", "You run a shop."), Shown("user", "Day 1.")), (FORM,), None
    )
    desk.open(turn)
    return desk, turn, TestClient(app_for(desk))


def _refusal(html: str) -> str:
    start = html.index('<p id="refusal" role="alert">') + len('<p id="refusal" role="alert">')
    return html[start : html.index("</p>", start)]


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
    response = client.post("/call", data=form, follow_redirects=False)
    # no next turn opens here: the answer's page says it was sent (it may be the last)
    assert response.status_code == 200 and escape(SENT) in response.text
    assert 'id="state"' in response.text and 'http-equiv="refresh"' not in response.text
    answer = turn.future.result(timeout=1)
    assert answer.calls == (("set_price", {"product_id": "P1", "price": 4}),)
    assert desk.turn is None and len(desk.done) == 1


@pytest.mark.parametrize(
    "form, line",
    [
        (
            {"tool": "set_price", "arg.product_id": "P1", "arg.price": "four"},
            "price: &#x27;four&#x27; is not a number",
        ),
        (
            {"tool": "pay_invoice", "arg.product_id": "P1"},
            "&#x27;pay_invoice&#x27; is not a tool of this turn",
        ),
        ({"tool": "set_price", "arg.product_id": "P1"}, "price: required"),
        (
            {"tool": "set_price", "arg.product_id": "P1", "arg.price": "1", "arg.x": "1"},
            "&#x27;arg.x&#x27; is not an argument of set_price",
        ),
    ],
)
def test_call__a_malformed_form_is_refused_on_the_page_and_nothing_is_sent(
    open_turn, form: dict[str, str], line: str
) -> None:
    desk, turn, client = open_turn
    response = client.post("/call", data={"token": turn.token, **form})
    assert response.status_code == 422
    assert _refusal(response.text) == line
    assert desk.turn is turn and not turn.future.done()


def test_call__a_stale_token_or_a_second_answer_is_refused(open_turn) -> None:
    desk, turn, client = open_turn
    form = {"tool": "set_price", "arg.product_id": "P1", "arg.price": "4"}
    stale = client.post("/call", data={"token": "old", **form})
    assert "that turn is no longer open" in _refusal(stale.text) and desk.turn is turn
    client.post("/call", data={"token": turn.token, **form})
    again = client.post("/call", data={"token": turn.token, **form})
    assert again.status_code == 409 and len(desk.done) == 1


def test_call__a_repeated_key_or_an_oversized_body_is_refused(open_turn) -> None:
    desk, turn, client = open_turn
    twice = f"token={turn.token}&tool=set_price&arg.price=1&arg.price=2&arg.product_id=P"
    headers = {"content-type": "application/x-www-form-urlencoded"}
    response = client.post("/call", content=twice, headers=headers)
    assert _refusal(response.text) == "&#x27;arg.price&#x27; is sent twice"
    big = client.post("/call", content="x=" + "a" * MAX_BODY, headers=headers)
    assert _refusal(big.text) == "the form is larger than 512 KB"
    assert desk.turn is turn and not turn.future.done()


def test_reply__a_plain_reply_answers_with_text_and_no_call(open_turn) -> None:
    _, turn, client = open_turn
    client.post("/reply", data={"token": turn.token, "text": "Done for today."})
    assert turn.future.result(timeout=1).text == "Done for today."
    assert turn.future.result().calls == ()


def test_stop__cancels_the_open_turn_and_the_page_says_how_to_resume(open_turn) -> None:
    desk, turn, client = open_turn
    page = client.post("/stop").text
    assert turn.future.cancelled() and desk.stopped
    assert "Run the same command again to resume it." in page
    assert client.get("/status.json").json() == {"turn": None, "answered": 0, "stopped": True}


def test_call__calls_added_to_a_turn_are_sent_first_and_in_order(open_turn) -> None:
    desk, turn, client = open_turn
    base = {"token": turn.token, "tool": "set_price", "arg.price": "1"}
    page = client.post("/call", data={**base, "arg.product_id": "A", "then": "queue"}).text
    assert "Calls in this turn so far" in page and "set_price(product_id=&#x27;A&#x27;" in page
    assert not turn.future.done()
    client.post("/call", data={**base, "arg.product_id": "B", "then": "send"})
    sent = [args["product_id"] for _, args in turn.future.result(timeout=1).calls]
    assert sent == ["A", "B"] and desk.turn is None
    bad = client.post("/call", data={**base, "arg.product_id": "C", "then": "later"})
    assert bad.status_code == 409  # the turn is closed: nothing queued to a closed turn


def test_call__an_answer_that_opens_a_next_turn_lands_on_it(open_turn) -> None:
    desk, turn, client = open_turn
    nxt = Turn("s-1", 1, 2, (Shown("user", "Day 2."),), (FORM,), None)
    turn.future.add_done_callback(lambda _: desk.open(nxt))
    response = client.post(
        "/reply", data={"token": turn.token, "text": "ok"}, follow_redirects=False
    )
    assert response.status_code == 303 and "Day 2." in client.get("/").text


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
    exit only after the answer's response is sent (it was cut: an empty reply)."""
    run = subprocess.Popen(
        [sys.executable, "-c", LAST_TURN], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert run.stdout is not None
        url, token = run.stdout.readline().split()
        data = urllib.parse.urlencode({"token": token, "text": "Done."}).encode()
        with urllib.request.urlopen(url + "reply", data, timeout=30) as response:
            assert response.status == 200 and escape(SENT) in response.read().decode()
        assert run.wait(timeout=30) == 0
    finally:
        run.kill()
