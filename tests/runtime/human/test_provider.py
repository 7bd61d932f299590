"""The `human` provider's settings: refused in one line when wrong, one sample at a time
through `checkout-consent run`, and registered through the package's Inspect entry point."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from checkout_consent.runtime.compat import prerequisite_error
from checkout_consent.runtime.human.provider import HumanModelAPI, shown
from checkout_consent.runtime.runner import RunFailed, sample_concurrency


@pytest.mark.parametrize(
    "name, args, line",
    [
        ("bot", {}, "human/bot: the player is human/web"),
        ("web", {"colour": "red"}, "human/web: unknown model arg 'colour'"),
        ("web", {"port": "eighty"}, "human/web: port and turn_seconds are numbers"),
        ("web", {"port": 0, "turn_seconds": 0}, "human/web: port is 0-65535 and turn_seconds"),
    ],
)
def test_provider__bad_settings_are_refused_in_one_line(
    name: str, args: dict[str, object], line: str, tmp_path: Path
) -> None:
    with pytest.raises(prerequisite_error()) as err:
        HumanModelAPI(name, journal=str(tmp_path / "j.jsonl"), **args)
    assert str(err.value).startswith(line)


def test_provider__a_malformed_journal_refuses_the_run_in_one_line(tmp_path: Path) -> None:
    journal = tmp_path / "j.jsonl"
    journal.write_text("{not json\n")
    with pytest.raises(prerequisite_error()) as err:
        HumanModelAPI("web", journal=str(journal), port=0)
    assert str(err.value) == f"journal {journal} line 1: not JSON"


def test_provider__serves_its_page_on_loopback_once_per_port(tmp_path: Path) -> None:
    first = HumanModelAPI("web", journal=str(tmp_path / "j.jsonl"), port=0)
    assert first.server.url.startswith("http://127.0.0.1:")
    again = HumanModelAPI("web", journal=str(tmp_path / "j.jsonl"), port=first.server.port)
    assert again.desk is first.desk
    assert first.base_url != again.base_url  # no two instances share Inspect's cache keys


def test_run__a_human_plays_one_sample_at_a_time() -> None:
    assert sample_concurrency(["human/web"], {}) == {"max_samples": 1}
    with pytest.raises(RunFailed, match="one sample at a time"):
        sample_concurrency(["human/web"], {"max_samples": 4})


def test_registry__human_web_is_an_inspect_model() -> None:
    from inspect_ai.model import get_model

    import checkout_consent._registry  # noqa: F401  (the entry point Inspect loads)

    assert type(get_model("human/web", port=0).api) is HumanModelAPI


def test_shown__a_tool_error_is_shown_as_an_error() -> None:
    from inspect_ai.model import ChatMessageTool
    from inspect_ai.tool import ToolCallError

    message = ChatMessageTool(
        content="", tool_call_id="call_0", error=ToolCallError("parsing", "bad")
    )
    assert shown(message).error and shown(message).text == "bad"


def test_provider__a_turn_past_its_time_budget_is_sent_as_an_empty_reply(tmp_path: Path) -> None:
    import asyncio

    from checkout_consent.runtime.human.desk import Turn
    from checkout_consent.runtime.human.page import turn_page

    api = HumanModelAPI("web", journal=str(tmp_path / "j.jsonl"), port=0, turn_seconds=1)
    turn = Turn("s", 1, 1, (), (), api.budget_s)
    assert 'id="left" data-left="1"' in turn_page(turn, api.desk)  # the budget is on the page
    answer = asyncio.run(api._ask(turn))
    assert answer is not None and (answer.text, answer.calls) == ("", ())
    # the turn was held open its whole 1 s budget before it was sent (no upper bound: a
    # loaded machine may take longer, and timing is the benchmarks' job)
    assert answer.seconds >= 1.0
    assert api.desk.turn is None  # the page no longer offers the turn
    assert "it was sent as an empty reply" in api.desk.notice


def test_provider__a_timed_out_turn_sends_the_calls_added_to_it(tmp_path: Path) -> None:
    """The page promises that calls added to a turn are sent with it: a turn whose time
    runs out sends them, in order, and the next page says so (they were dropped)."""
    import asyncio

    from checkout_consent.runtime.human.desk import Turn

    api = HumanModelAPI("web", journal=str(tmp_path / "j.jsonl"), port=0, turn_seconds=1)
    turn = Turn("s", 1, 2, (), (), api.budget_s)

    async def play() -> object:
        asking = asyncio.ensure_future(api._ask(turn))
        await asyncio.sleep(0.1)
        for product in ("A", "B"):
            assert api.desk.queue(turn.token, ("set_price", {"product_id": product})) is None
        return await asking

    answer = asyncio.run(play())
    assert answer.calls == (  # type: ignore[attr-defined]
        ("set_price", {"product_id": "A"}),
        ("set_price", {"product_id": "B"}),
    )
    assert api.desk.notice == (
        "Turn 2 ran out of time after 1 s: the 2 call(s) added to it were sent, in order, "
        "with no reply text."
    )


def test_provider__a_model_object_that_never_generates_serves_no_page(tmp_path: Path) -> None:
    """Inspect builds `human/web` with no model args for its event mapping: that object must
    not serve a second page (on the default port) beside the run's own."""
    from checkout_consent.runtime.human import provider

    with socket.socket() as probe:  # a port no earlier test served a page on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    api = HumanModelAPI("web", journal=str(tmp_path / "j.jsonl"), port=port)
    assert port not in provider._SERVERS  # nothing served yet
    assert api.server.url == f"http://127.0.0.1:{port}/"  # first use serves it
    assert port in provider._SERVERS
