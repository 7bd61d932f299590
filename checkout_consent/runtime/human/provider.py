"""Inspect glue: the `human` model provider. `--model human/web` answers each generate()
call with a person's move on a page served on loopback; the output is built as a control's
is, so the solver, trace, scorer and record cannot tell a person from a model. Model args:
`port`, `journal`, `turn_seconds` (docs/human-baseline.md)."""

from __future__ import annotations

import asyncio
import atexit
import json
import secrets
import sys
from pathlib import Path
from typing import Any

from inspect_ai.model import (
    ChatMessage,
    ChatMessageAssistant,
    GenerateConfig,
    ModelAPI,
    ModelOutput,
)
from inspect_ai.tool import ToolChoice, ToolInfo

from checkout_consent.core.controls import Reply
from checkout_consent.runtime import compat
from checkout_consent.runtime.human import ending
from checkout_consent.runtime.human.desk import Answer, Desk, Shown, Turn
from checkout_consent.runtime.human.fields import Form, Refused, check_args, form_of
from checkout_consent.runtime.human.journal import Journal, JournalError, turn_key
from checkout_consent.runtime.human.server import PageServer
from checkout_consent.runtime.provider import reply_output, to_msg

DEFAULT_PORT = 8765
DEFAULT_JOURNAL = "logs/human/journal.jsonl"
PLAYERS = ("web",)
_SERVERS: dict[int, tuple[Desk, PageServer]] = {}  # one page per port per process


def shown(message: ChatMessage) -> Shown:
    """A chat message as the page shows it."""
    m = to_msg(message)
    calls = tuple((c.tool, json.dumps(c.args, indent=1)) for c in m.calls)
    return Shown(m.role, m.text, calls, m.error)


def desk_on(port: int) -> tuple[Desk, PageServer]:
    """The desk and page served on `port`, started once per process."""
    if port not in _SERVERS:
        desk = Desk()
        server = PageServer(desk, port)
        atexit.register(server.close)  # the last answer's page is sent before the exit
        _SERVERS[server.port] = _SERVERS[port] = (desk, server)
        ending.DESKS.append(desk)
        print(f"human/web: play at {server.url}", file=sys.stderr, flush=True)
    return _SERVERS[port]


def _options(model_args: dict[str, Any]) -> tuple[int, Path, float | None]:
    unknown = set(model_args) - {"port", "journal", "turn_seconds"}
    if unknown:
        raise compat.prerequisite_error()(
            f"human/web: unknown model arg {sorted(unknown)[0]!r} (port, journal, turn_seconds)"
        )
    try:
        port = int(model_args.get("port", DEFAULT_PORT))
        budget = model_args.get("turn_seconds")
        seconds = None if budget is None else float(budget)
    except (TypeError, ValueError):
        raise compat.prerequisite_error()("human/web: port and turn_seconds are numbers") from None
    if not 0 <= port < 65536 or seconds is not None and not 1 <= seconds <= 86_400:
        raise compat.prerequisite_error()(
            "human/web: port is 0-65535 and turn_seconds 1-86400 seconds"
        )
    return port, Path(str(model_args.get("journal", DEFAULT_JOURNAL))), seconds


class HumanModelAPI(ModelAPI):
    """A person at a browser page, as an Inspect model."""

    def __init__(
        self,
        model_name: str,
        base_url: str | None = None,
        api_key: str | None = None,
        config: GenerateConfig | None = None,
        **model_args: Any,
    ) -> None:
        # A person's answer is no function of the input, so Inspect's model cache (on in
        # some setups) must never serve one: a base URL unique to this process keys every
        # cache entry apart from any earlier run's.
        nonce = f"human://{secrets.token_hex(8)}"
        super().__init__(model_name, nonce, api_key, [], config or GenerateConfig())
        if model_name not in PLAYERS:
            raise compat.prerequisite_error()(f"human/{model_name}: the player is human/web")
        self.port, journal, self.budget_s = _options(model_args)
        try:
            self.journal = Journal(journal)
        except JournalError as err:
            raise compat.prerequisite_error()(str(err)) from None
        self._page: tuple[Desk, PageServer] | None = None

    def _serve(self) -> tuple[Desk, PageServer]:
        """The page, served on first use (a model object that never generates serves none)."""
        if self._page is None:
            try:
                self._page = desk_on(self.port)
            except OSError as err:
                raise RuntimeError(f"human/web: cannot serve the page: {err}") from None
        return self._page

    @property
    def desk(self) -> Desk:
        return self._serve()[0]

    @property
    def server(self) -> PageServer:
        return self._serve()[1]

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        ending.register()  # inside the eval: the page is told how it ends
        sample = compat.active_sample()
        await self._take_seat(sample)
        if self.desk.stopped:
            return await self._stopped(sample)
        forms = tuple(form_of(t) for t in tools)
        conversation = tuple(shown(m) for m in input)
        sample_id, epoch = (str(sample.sample.id), sample.epoch) if sample else ("-", 1)
        number = 1 + sum(isinstance(m, ChatMessageAssistant) for m in input)
        key = turn_key(sample_id, epoch, number, conversation, forms)
        answer = self._journaled(key, forms)
        if answer is not None:
            self.desk.replayed(sample_id, epoch, number, answer)
        else:
            turn = Turn(sample_id, epoch, number, conversation, forms, self.budget_s)
            answer = await self._ask(turn)
            if answer is None:
                return await self._stopped(sample)
            self.journal.write(key, answer)
        transcript = [to_msg(m) for m in input]
        output = reply_output(self.model_name, transcript, Reply(answer.text, answer.calls))
        output.metadata = {"human_seconds": answer.seconds}
        return output

    def _journaled(self, key: str, forms: tuple[Form, ...]) -> Answer | None:
        answer = self.journal.answers.get(key)
        if answer is None:
            return None
        known = {f.tool: f for f in forms}
        try:
            for tool, args in answer.calls:
                if tool not in known:
                    raise Refused(f"{tool[:60]!r} is not a tool of this turn")
                check_args(known[tool], args)
        except Refused as err:
            raise compat.prerequisite_error()(f"journal {self.journal.path}: {err}") from None
        return answer

    async def _ask(self, turn: Turn) -> Answer | None:
        """The person's answer to `turn` (None: they stopped the run)."""
        future = self.desk.open(turn)
        waiting = asyncio.wrap_future(future)
        try:
            with compat.awaiting_human():
                await asyncio.wait({waiting}, timeout=self.budget_s)
            if not future.done():
                self.desk.expire(turn, self.budget_s or 0.0)
            return await waiting
        except asyncio.CancelledError:
            if future.cancelled():
                return None
            raise
        finally:
            self.desk.close(turn)

    async def _take_seat(self, sample: Any) -> None:
        """One sample at a time per page: wait until the sample being played has ended."""
        desk = self.desk
        with compat.awaiting_human():
            while desk.seat not in (None, sample) and compat.sample_running(desk.seat):
                await asyncio.sleep(0.2)
        desk.seat = sample

    async def _stopped(self, sample: Any) -> ModelOutput:
        """The person stopped the run: cancel this sample (kept in the log, not scored)."""
        if sample is not None:
            sample.interrupt("cancel")
            await asyncio.sleep(0)  # the cancelled scope ends the sample here
        raise RuntimeError("human/web: the run was stopped by the player")

    def max_tokens(self) -> int | None:
        return None

    def max_connections(self) -> int:
        return 1
