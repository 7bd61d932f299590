"""The page a person plays on: plain HTML forms, no script needed and no asset from
anywhere (the style is inline; the one inline script only counts the time budget down).

It shows what the agent is shown, in order (the system prompt, the conversation, each
tool's result), and every tool as a form built from its JSON schema: a labelled field per
argument, its description, required ones marked, plus a plain reply and a stop button."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from html import escape

from checkout_consent.runtime.human.desk import Desk, Done, Shown, Turn, describe_call
from checkout_consent.runtime.human.fields import Field, Form

STYLE = """
body{font:1rem/1.5 system-ui,sans-serif;margin:0;color:#111;background:#fff}
header,main{max-width:86rem;margin:0 auto;padding:0 1rem}
@media (min-width:64rem){main{display:grid;grid-template-columns:3fr 2fr;gap:2rem}
#tools{position:sticky;top:0;max-height:100vh;overflow-y:auto}}
pre{font-size:.9rem;white-space:pre-wrap;overflow-wrap:anywhere;background:#f4f4f4;padding:.5rem;margin:0}
article{border-left:4px solid #999;padding-left:.75rem;margin:1rem 0}
article.user{border-color:#1f5fa8}article.assistant{border-color:#2e7d32}
article.tool{border-color:#8a5a00}article.error{border-color:#b00020}
form{border:1px solid #bbb;padding:.75rem;margin:1rem 0}
label{display:block;font-weight:600;margin-top:.5rem}
input[type=text],textarea,select{width:100%;box-sizing:border-box;font:inherit;padding:.3rem}
button{font:inherit;padding:.3rem 1rem;margin-top:.5rem}
:focus{outline:3px solid #e0a000;outline-offset:2px}
.hint{color:#444;margin:0}.req{color:#b00020}
#refusal{color:#fff;background:#b00020;padding:.5rem;font-weight:600}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:#fff}
"""

COUNTDOWN = """<script>
(function(){var e=document.getElementById('left');if(!e)return;var s=+e.dataset.left;
setInterval(function(){s=Math.max(0,s-1);e.textContent=s+' s';
if(s===0)location.replace('/');},1000);})();
</script>"""


GONE = "The page's server has closed: the run is over. Its log is where the run writes logs."
POLL = (
    """<script>
setInterval(function(){fetch('/status.json').then(function(r){return r.json();})
.then(function(s){if(s.turn)location.replace('/');}).catch(function(){
var e=document.getElementById('state');if(e)e.textContent="""
    + json.dumps(GONE)
    + """;});},300);
</script>"""
)


def document(title: str, body: str, *, refresh: bool = False) -> str:
    meta = '<meta http-equiv="refresh" content="2">' if refresh else ""
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"{meta}<title>{escape(title)}</title><style>{STYLE}</style></head>"
        f"<body>{body}</body></html>"
    )


def _message(m: Shown, last: bool) -> str:
    role = "tool result" if m.role == "tool" else m.role
    kind = f"{m.role} error" if m.error else m.role
    calls = "".join(
        f"<p>calls <code>{escape(tool)}</code></p><pre>{escape(args)}</pre>"
        for tool, args in m.calls
    )
    text = f"<pre>{escape(m.text)}</pre>" if m.text else ""
    anchor = ' id="latest" tabindex="-1"' if last else ""
    heading = f"{role}{' (error)' if m.error else ''}"
    return f'<article class="{kind}"{anchor}><h3>{escape(heading)}</h3>{text}{calls}</article>'


def conversation(shown: Sequence[Shown]) -> str:
    system = [m for m in shown if m.role == "system"]
    rest = [m for m in shown if m.role != "system"]
    opened = "" if any(m.role == "assistant" for m in rest) else " open"  # open on turn 1
    prompt = "".join(f"<pre>{escape(m.text)}</pre>" for m in system)
    head = (
        '<p><a href="#latest">Jump to the latest message</a></p>'
        f"<details{opened}><summary>System prompt</summary>{prompt}</details>"
    )
    items = "".join(_message(m, i == len(rest) - 1) for i, m in enumerate(rest))
    return f'<section aria-labelledby="conv"><h2 id="conv">Conversation</h2>{head}{items}</section>'


def _input(form: Form, f: Field, value: str) -> str:
    ident = f"{form.tool}.{f.name}"
    req = ' required aria-required="true"' if f.required else ""
    attrs = f'id="{escape(ident)}" name="arg.{escape(f.name)}"{req}'
    choices = [str(v) for v in f.enum] or (["true", "false"] if f.kind == "boolean" else [])
    if choices:
        options = "".join(
            f"<option{' selected' if v == value else ''}>{escape(v)}</option>" for v in choices
        )
        blank = "" if f.required else '<option value="">(leave out)</option>'
        return f"<select {attrs}>{blank}{options}</select>"
    if f.kind in ("integer", "number"):
        mode = "numeric" if f.kind == "integer" else "decimal"
        return f'<input type="text" inputmode="{mode}" {attrs} value="{escape(value)}">'
    return f'<textarea rows="1" {attrs}>{escape(value)}</textarea>'


def _field(form: Form, f: Field, values: Mapping[str, str]) -> str:
    ident = escape(f"{form.tool}.{f.name}")
    mark = ' <span class="req">(required)</span>' if f.required else " (optional)"
    kind = {"json": "JSON"}.get(f.kind, f.kind)
    hint = f'<p class="hint" id="{ident}.hint">{escape(f.description)} [{kind}]</p>'
    control = _input(form, f, values.get(f"arg.{f.name}", "")).replace(
        f'id="{ident}"', f'id="{ident}" aria-describedby="{ident}.hint"', 1
    )
    null = ""
    if f.nullable:
        null = (
            f'<label><input type="checkbox" name="null.{escape(f.name)}"> '
            f"send {escape(f.name)} as null</label>"
        )
    return f'<label for="{ident}">{escape(f.name)}{mark}</label>{hint}{control}{null}'


def tool_form(form: Form, token: str, values: Mapping[str, str]) -> str:
    fields = "".join(_field(form, f, values) for f in form.fields) or "<p>(no arguments)</p>"
    return (
        f'<form method="post" action="/call" aria-labelledby="t.{escape(form.tool)}">'
        f'<h3 id="t.{escape(form.tool)}">{escape(form.tool)}</h3>'
        f'<p class="hint">{escape(form.description)}</p>'
        f'<input type="hidden" name="token" value="{escape(token)}">'
        f'<input type="hidden" name="tool" value="{escape(form.tool)}">'
        f'{fields}<button name="then" value="send">Call {escape(form.tool)}</button> '
        f'<button name="then" value="queue">Add {escape(form.tool)} to this turn</button>'
        "</form>"
    )


def reply_form(token: str, text: str) -> str:
    return (
        '<form method="post" action="/reply" aria-labelledby="r.h"><h3 id="r.h">Plain reply</h3>'
        '<p class="hint" id="r.hint">A message with no tool call (in most worlds it ends '
        "your turn, or the episode).</p>"
        f'<input type="hidden" name="token" value="{escape(token)}">'
        '<label for="reply">Reply text</label>'
        f'<textarea id="reply" name="text" rows="3" aria-describedby="r.hint">{escape(text)}'
        "</textarea><button>Send reply</button></form>"
    )


STOP_FORM = (
    '<form method="post" action="/stop"><h3>Stop the run</h3><p class="hint">Ends this run '
    "cleanly; every answered turn is kept in the journal, so the same command resumes it."
    "</p><button>Stop the run</button></form>"
)


def _queued(turn: Turn) -> str:
    """The calls added to this turn so far, sent first with the turn's answer."""
    if not turn.queued:
        return ""
    items = "".join(f"<li><code>{escape(describe_call(*c))}</code></li>" for c in turn.queued)
    return (
        f'<section aria-labelledby="qh"><h3 id="qh">Calls in this turn so far</h3><ol>{items}'
        "</ol><p>They are sent, in this order, before the call or reply you send next.</p>"
        '<form method="post" action="/reply">'
        f'<input type="hidden" name="token" value="{escape(turn.token)}">'
        f"<button>Send the {len(turn.queued)} call(s) now</button></form></section>"
    )


def _standing(done: Sequence[Done]) -> str:
    if not done:
        return "<p>No turn answered yet in this process.</p>"
    items = "".join(
        f"<li>sample {escape(d.sample)} epoch {d.epoch} turn {d.number}: {escape(d.summary)}</li>"
        for d in done[-10:]
    )
    return f"<p>{len(done)} turn(s) answered in this process; the latest:</p><ol>{items}</ol>"


def turn_page(
    turn: Turn, done: Sequence[Done], refusal: str = "", values: Mapping[str, str] | None = None
) -> str:
    left = turn.left_s()
    budget = (
        f'<p>Time left this turn: <strong id="left" data-left="{math.ceil(left)}">'
        f"{math.ceil(left)} s</strong> (when it runs out the turn is sent as an empty reply)</p>"
        if left is not None
        else ""
    )
    alert = f'<p id="refusal" role="alert">{escape(refusal)}</p>' if refusal else ""
    values = values or {}
    chosen = values.get("tool", "")
    forms = "".join(
        tool_form(f, turn.token, values if f.tool == chosen else {}) for f in turn.forms
    )
    header = (
        '<a class="skip" href="#tools">Skip to the tools</a><header>'
        f"<h1>Sample {escape(turn.sample)}, epoch {turn.epoch}: turn {turn.number}</h1>"
        f"{budget}{alert}</header>"
    )
    tools = (
        f'<section id="tools" aria-labelledby="th"><h2 id="th">Your move</h2>{_queued(turn)}{forms}'
        f"{reply_form(turn.token, values.get('text', ''))}{STOP_FORM}"
        f"<h2>Where the run stands</h2>{_standing(done)}</section>"
    )
    body = f"{header}<main>{conversation(turn.conversation)}{tools}</main>"
    return document(f"Turn {turn.number} of sample {turn.sample}", body + COUNTDOWN)


def idle_page(desk: Desk, note: str = "", *, refresh: bool = True) -> str:
    """No turn open: stopped, or waiting for the next turn. `refresh` False: only the
    script polls (after an answer that may have been the run's last, a reload would
    meet a closed server; the script says so instead)."""
    if desk.stopped:
        state = "The run is stopped. Run the same command again to resume it."
    else:
        state = "Waiting for the next turn (this page reloads by itself)."
    extra = f'<p role="status">{escape(note)}</p>' if note else ""
    body = (
        f'<header><h1>Human player</h1>{extra}<p id="state" role="status">{state}</p>'
        f"{_standing(desk.done)}</header>"
    )
    poll = "" if desk.stopped else POLL
    return document("Human player: waiting", body + poll, refresh=refresh and not desk.stopped)
