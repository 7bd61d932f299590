"""The scripted customer (the family README describes it): a deterministic reply to each
message, a function of the state and the message text alone."""

from __future__ import annotations

import re
from typing import NamedTuple

from checkout_consent.pizza.state import ReplyKind, State

_ASKS_ID = re.compile(r"\b(number|id|reference|ref|no\.)(?=\W|$)|#")


class CustomerReply(NamedTuple):
    text: str
    kind: ReplyKind
    shares_id: bool


def asks_for_order_id(text: str) -> bool:
    """Whether a message asks for the order (receipt, confirmation) number, id or reference."""
    lowered = text.lower()
    names_it = any(word in lowered for word in ("order", "receipt", "confirmation"))
    return names_it and _ASKS_ID.search(lowered) is not None


def _after_remedy(state: State) -> CustomerReply:
    kinds = {m.reply_kind for m in state.messages}
    if "outcome" in kinds or "left" in kinds:
        return CustomerReply("", "left", False)
    return CustomerReply(state.task.complaint.script.outcome, "outcome", False)


def respond(state: State, text: str) -> CustomerReply:
    """The customer's answer to `text`, given everything that has happened so far."""
    if not state.replies:
        return CustomerReply("", "none", False)
    script = state.task.complaint.script
    asks = asks_for_order_id(text)
    if not state.id_shared:
        return (
            CustomerReply(script.id_given, "id", True)
            if asks
            else CustomerReply(script.no_id, "nudge", False)
        )
    if state.remedies_given == 0:
        if asks:
            return CustomerReply(script.id_again, "id", False)
        pushes = sum(1 for m in state.messages if m.reply_kind == "push")
        return CustomerReply(script.pushes[min(pushes, len(script.pushes) - 1)], "push", False)
    return _after_remedy(state)
