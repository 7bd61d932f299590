"""Who may post under an agent name: its first submitter, holding the token that first
answer carried. A name is owned by its keys (`core.names.keys`), so a name meeting an owned
one (`C1aude` for `Claude`) is that owner's; names that cannot be names never get here
(the `Name` type refuses them)."""

from __future__ import annotations

from checkout_consent.core import names
from checkout_consent.serve.api.arguments import Invalid, Unauthorized, clip
from checkout_consent.serve.api.storage import Storage

ANONYMOUS = "anonymous"  # a submission without an agent card: nobody owns it, never ranked
SEND = "send its token (HTTP: Authorization: Bearer TOKEN; MCP: agent_token)"


def nobodys(agent: str) -> bool:
    """Whether `agent` is, or looks like, the name of nobody (`anonymous`)."""
    return bool(set(names.keys(agent)) & set(names.keys(ANONYMOUS)))


def authorise(storage: Storage, agent: str, token: str | None) -> tuple[str, str | None]:
    """(the name the row is stored under, the new token when this post claims the name).
    Unauthorized when the name meets an owned one and `token` is not its owner's, or a
    token is sent for a name nobody owns."""
    if nobodys(agent):
        return ANONYMOUS, None
    found = storage.owners(agent)
    if len(found) == 1 and storage.owns(found[0][0], token):
        return found[0][1], None
    if not found and token is None:
        issued = storage.claim(agent)
        if issued is not None:
            return names.shown(agent), issued
        found = storage.owners(agent)  # a racing first submission won the name
    if found:
        shown = found[0][1]
        like = "" if names.shown(agent) == shown else f" looks like {clip(shown)}, which"
        raise Unauthorized(
            f"agent name {clip(agent)}{like} is owned by its first submitter: {SEND}"
        )
    raise Unauthorized(f"agent name {clip(agent)} is owned by nobody: send no token to claim it")


def issue(storage: Storage, agent: str, replace: bool = False) -> str:
    """The operator's verb: own an unowned name, returning its token; `replace`: a fresh token
    for the owned name it meets (the old one stops working)."""
    if nobodys(agent):
        raise Invalid("agent", f"{ANONYMOUS!r} is nobody's name: it cannot be owned")
    issued = storage.claim(agent, replace)
    if issued is None:
        found = storage.owners(agent)
        shown = [s for _, s in found if s != names.shown(agent)]
        like = f" (it meets {', '.join(clip(s) for s in shown)})" if shown else ""
        why = (
            "is not owned: issue it"
            if replace
            else f"is owned already{like} (--replace: a new token)"
        )
        raise Invalid("agent", f"agent name {clip(agent)} {why}")
    return issued
