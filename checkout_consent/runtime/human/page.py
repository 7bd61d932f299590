"""The page a person plays on: plain HTML forms and no asset from anywhere (the style and
the one script, a countdown and a poll for the next turn, are inline). It shows what the
agent is shown, in order, and every tool as a form built from its JSON schema."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from html import escape

from checkout_consent.runtime.human.desk import Desk, Done, Shown, Turn, describe_call
from checkout_consent.runtime.human.fields import Field, Form
from checkout_consent.runtime.human.results import result_html

STYLE = """
body{font:1rem/1.5 system-ui,sans-serif;margin:0;color:#111;background:#fff}
header,main{max-width:86rem;margin:0 auto;padding:0 1rem}
@media (min-width:64rem){main{display:grid;grid-template-columns:minmax(0,3fr) minmax(0,2fr);
gap:2rem}#tools{position:sticky;top:0;max-height:100vh;overflow-y:auto}}
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
#refusal{color:#fff;background:#b00020;padding:.5rem;font-weight:600}#refusal a{color:#fff}
.error{color:#b00020;font-weight:600;margin:.25rem 0}[aria-invalid=true]{border:2px solid #b00020}
.scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;margin:.25rem 0;font-size:.9rem}
th,td{border:1px solid #ccc;padding:.2rem .4rem;text-align:left;vertical-align:top}
td{overflow-wrap:break-word}th{background:#eef2f7;white-space:nowrap}
caption{text-align:left;color:#444}.none{color:#666;font-style:italic}
code.path{display:block;overflow-wrap:anywhere;background:#f4f4f4;padding:.25rem}
td table{margin:0}ul,ol{margin:.25rem 0}
form.inline{display:inline;border:0;padding:0;margin:0 0 0 .5rem}
form.inline button{margin:0;padding:0 .5rem}
#ended{border:2px solid #2e7d32;padding:.25rem 1rem;margin:1rem 0}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:#fff}
"""

GONE = (
    "The page's server has closed: the run is over. This page stays as it is: what it "
    "shows of the run's end is all there is."
)
# The page never navigates to a server that may have closed: it polls /status.json and
# reloads only for a turn or an end it does not show yet; with no answer it stays as it is.
WATCH = (
    """<script>
(function(){var here=document.body.dataset,left=document.getElementById('left'),
s=left?+left.dataset.left:null;function gone(){var e=document.getElementById('gone');
if(e)e.textContent="""
    + json.dumps(GONE)
    + """;}
function poll(){fetch('/status.json').then(function(r){return r.json();}).then(function(t){
var turn=t.turn?t.turn.join('/'):'';if(turn!==here.turn||String(t.ended)!==here.ended
||(s!==null&&s<0))location.replace('/');else setTimeout(poll,300);}).catch(gone);}
if(left)setInterval(function(){s-=1;left.textContent=Math.max(0,s)+' s';},1000);
poll();})();
</script>"""
)


def document(title: str, body: str, watch: tuple[str, int]) -> str:
    """The page; `watch`: the open turn and its end lines' count (the script reloads on change)."""
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        '<noscript><meta http-equiv="refresh" content="2"></noscript>'
        f"<title>{escape(title)}</title><style>{STYLE}</style></head>"
        f'<body data-turn="{escape(watch[0])}" data-ended="{watch[1]}">{body}{WATCH}'
        "</body></html>"
    )


def _message(m: Shown, last: bool) -> str:
    role = "tool result" if m.role == "tool" else m.role
    kind = f"{m.role} error" if m.error else m.role
    calls = "".join(
        f"<p>calls <code>{escape(tool)}</code></p><pre>{escape(args)}</pre>"
        for tool, args in m.calls
    )
    readable = m.role == "tool" and not m.error
    text = (result_html(m.text) if readable else f"<pre>{escape(m.text)}</pre>") if m.text else ""
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


def _input(form: Form, f: Field, value: str, described: str) -> str:
    ident = f"{form.tool}.{f.name}"
    req = ' required aria-required="true"' if f.required else ""
    attrs = f'id="{escape(ident)}" name="arg.{escape(f.name)}"{req} aria-describedby="{described}"'
    choices = [str(v) for v in f.enum] or (["true", "false"] if f.kind == "boolean" else [])
    if choices:
        options = "".join(
            f"<option{' selected' if v == value else ''}>{escape(v)}</option>" for v in choices
        )
        blank = '<option value="">(leave out)</option>' if not f.required else ""
        if f.required and value not in choices:
            blank = '<option value="" selected disabled>(choose one)</option>'
        return f"<select {attrs}>{blank}{options}</select>"
    if f.kind in ("integer", "number"):
        mode = "numeric" if f.kind == "integer" else "decimal"
        return f'<input type="text" inputmode="{mode}" {attrs} value="{escape(value)}">'
    return f'<textarea rows="1" {attrs}>{escape(value)}</textarea>'


def _field(form: Form, f: Field, values: Mapping[str, str], error: str) -> str:
    ident = escape(f"{form.tool}.{f.name}")
    mark = ' <span class="req">(required)</span>' if f.required else " (optional)"
    kind = {"json": "JSON"}.get(f.kind, f.kind)
    choice = "a choice" if f.enum else kind
    hint = f'<p class="hint" id="{ident}.hint">{escape(f.description)} [{choice}]</p>'
    described = f"{ident}.hint"
    shown = ""
    if error:
        described = f"{ident}.error {described}"
        shown = f'<p class="error" id="{ident}.error">{escape(error)}</p>'
    control = _input(form, f, values.get(f"arg.{f.name}", ""), described)
    if error:
        control = control.replace(f'id="{ident}"', f'id="{ident}" aria-invalid="true" autofocus', 1)
    null = ""
    if f.nullable:
        null = (
            f'<label><input type="checkbox" name="null.{escape(f.name)}"> '
            f"send {escape(f.name)} as null</label>"
        )
    return f'<label for="{ident}">{escape(f.name)}{mark}</label>{hint}{shown}{control}{null}'


def tool_form(form: Form, token: str, values: Mapping[str, str], errors: Mapping[str, str]) -> str:
    fields = "".join(_field(form, f, values, errors.get(f.name, "")) for f in form.fields)
    return (
        f'<form method="post" action="/call" aria-labelledby="t.{escape(form.tool)}">'
        f'<h3 id="t.{escape(form.tool)}">{escape(form.tool)}</h3>'
        f'<p class="hint">{escape(form.description)}</p>'
        f'<input type="hidden" name="token" value="{escape(token)}">'
        f'<input type="hidden" name="tool" value="{escape(form.tool)}">'
        f"{fields or '<p>(no arguments)</p>'}"
        f'<button name="then" value="send">Call {escape(form.tool)}</button> '
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


def stop_form(token: str) -> str:
    return (
        '<form method="post" action="/stop"><h3>Stop the run</h3><p class="hint">Ends this '
        "run cleanly; every answered turn is kept in the journal, so the same command resumes "
        f'it.</p><input type="hidden" name="token" value="{escape(token)}">'
        "<button>Stop the run</button></form>"
    )


def _queued(turn: Turn) -> str:
    """The calls added to this turn so far, each removable before it is sent."""
    if not turn.queued:
        return ""
    token = escape(turn.token)
    items = "".join(
        f"<li><code>{escape(describe_call(*c))}</code>"
        f'<form class="inline" method="post" action="/unqueue">'
        f'<input type="hidden" name="token" value="{token}">'
        f'<input type="hidden" name="index" value="{i}">'
        f'<button aria-label="Remove call {i + 1}">Remove</button></form></li>'
        for i, c in enumerate(turn.queued)
    )
    budget = " If the turn's time runs out, they are sent as they are." if turn.budget_s else ""
    return (
        f'<section aria-labelledby="qh"><h3 id="qh">Calls in this turn so far</h3><ol>{items}'
        f"</ol><p>They are sent, in this order, before the call or reply you send next.{budget}"
        '</p><form method="post" action="/reply">'
        f'<input type="hidden" name="token" value="{token}">'
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


def _alert(refusal: tuple[str, str, dict[str, str]] | None) -> str:
    if refusal is None:
        return ""
    line, about, values = refusal
    tool = values.get("tool", "")
    where = f' (<a href="#{escape(tool)}.{escape(about)}">to the field</a>)' if about else ""
    return f'<p id="refusal" role="alert">{escape(line)}{where}</p>'


def turn_page(
    turn: Turn, desk: Desk, refusal: tuple[str, str, dict[str, str]] | None = None
) -> str:
    left = turn.left_s()
    budget = (
        f'<p>Time left this turn: <strong id="left" data-left="{math.ceil(left)}">'
        f"{math.ceil(left)} s</strong> (when it runs out, the calls added to the turn are "
        "sent as they are, or, with none, an empty reply)</p>"
        if left is not None
        else ""
    )
    values = refusal[2] if refusal else {}
    errors = {refusal[1]: refusal[0]} if refusal and refusal[1] else {}
    chosen = values.get("tool", "")
    forms = "".join(
        tool_form(f, turn.token, *((values, errors) if f.tool == chosen else ({}, {})))
        for f in turn.forms
    )
    note = f'<p role="status">{escape(desk.notice)}</p>' if desk.notice else ""
    header = (
        '<a class="skip" href="#tools">Skip to the tools</a><header>'
        f"<h1>Sample {escape(turn.sample)}, epoch {turn.epoch}: turn {turn.number}</h1>"
        f'{note}{budget}{_alert(refusal)}<p id="gone" role="status"></p></header>'
    )
    tools = (
        f'<section id="tools" aria-labelledby="th"><h2 id="th">Your move</h2>{_queued(turn)}{forms}'
        f"{reply_form(turn.token, values.get('text', ''))}{stop_form(turn.token)}"
        f"<h2>Where the run stands</h2>{_ended(desk.ended)}{_standing(desk.done)}</section>"
    )
    body = f"{header}<main>{conversation(turn.conversation)}{tools}</main>"
    watch = (f"{turn.sample}/{turn.epoch}/{turn.number}", len(desk.ended))
    return document(f"Turn {turn.number} of sample {turn.sample}", body, watch)


def _ended(lines: Sequence[tuple[str, str]]) -> str:
    """The run's end as it comes in: each line, and a path (the log's) on a line of its own."""
    if not lines:
        return ""
    items = "".join(
        f"<li>{escape(text)}"
        + (f'<code class="path">{escape(path)}</code>' if path else "")
        + "</li>"
        for text, path in lines
    )
    return (
        f'<section id="ended" aria-labelledby="eh"><h2 id="eh">Results</h2><ul>{items}</ul>'
        "<p>To put a person's run on the board: docs/human-baseline.md, "
        "'Submitting a human run'.</p></section>"
    )


def idle_page(desk: Desk) -> str:
    """No turn open: stopped, waiting for the next turn, or the run's end."""
    if desk.stopped:
        state = "The run is stopped. Run the same command again to resume it."
    elif desk.done:
        state = "Your answer is sent. Waiting for the next turn, or for the run's results."
    else:
        state = "Waiting for the first turn."
    extra = f'<p role="status">{escape(desk.notice)}</p>' if desk.notice else ""
    body = (
        f"<header><h1>Human player</h1>{extra}{_ended(desk.ended)}"
        f'<p id="state" role="status">{state}</p><p id="gone" role="status"></p>'
        f"{_standing(desk.done)}</header>"
    )
    return document("Human player", body, ("", len(desk.ended)))
