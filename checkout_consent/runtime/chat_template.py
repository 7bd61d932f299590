"""The tool-call protocol a local model was evaluated under: its chat template, named."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from importlib.resources import files
from typing import Any

NATIVE = "native"
ADAPTED = "adapted"
UNRECOGNISED = "unrecognised"
ADAPTED_LABEL = "tools as JSON text (fenced or bare): template adapted to the model's output"
NATIVE_LABEL = "tools through the model's own chat template"


@dataclass(frozen=True)
class Adapted:
    """A shipped template: which model's own it copies, and what it changes."""

    name: str
    models: str  # the models it is written for
    changes: str  # what differs from the model's own template, in one paragraph

    @property
    def text(self) -> str:
        return files(__package__).joinpath(f"chat_templates/{self.name}.jinja").read_text()

    @property
    def sha256(self) -> str:
        return digest(self.text)


_FENCE = (
    "The two places where the model's own template writes a tool call in <tool_call> tags "
    "(the instruction in the system turn, and the rendering of past calls) use a fenced "
    "```json block instead, the form these models write; llama-server derives its "
    "call parser from the template, so it then parses the model's replies into tool_calls."
)
TEMPLATES: dict[str, Adapted] = {
    a.name: a
    for a in (
        Adapted(
            "qwen2.5-coder-fenced-json",
            "Qwen2.5-Coder-0.5B-Instruct and -1.5B-Instruct (Hermes-style template)",
            _FENCE + " Everything else is the 0.5B GGUF's template byte for byte (the 1.5B's "
            "own differs from it only in doubled braces inside the instruction's example).",
        ),
        Adapted(
            "qwen2.5-coder-bare-json",
            "Qwen2.5-Coder-0.5B-Instruct where it writes a call as bare JSON (the two store "
            "worlds)",
            "The same two places as qwen2.5-coder-fenced-json, with the call as a bare JSON "
            "object (no fence, no tags): the form the 0.5B writes in the two store worlds "
            "under the fenced template (all 1,500 of its replies there), which llama-server "
            "then parsed into none. Everything else is the fenced template byte for byte.",
        ),
        Adapted(
            "smollm2-fenced-json",
            "SmolLM2-135M-Instruct (ChatML tokens; its own template offers no tools at all)",
            "SmolLM2's own template renders only role and content, so tools are never shown "
            "to it. This is the Qwen2.5-Coder fenced template with SmolLM2's default system "
            "line: tools listed in the system turn, calls as a fenced ```json block, tool "
            "results as <tool_response> in a user turn.",
        ),
    )
}


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def template_file(name: str) -> str:
    """The path of a shipped template, for llama-server's --chat-template-file."""
    if name not in TEMPLATES:
        raise ValueError(f"no shipped chat template {name!r}: one of {', '.join(TEMPLATES)}")
    return str(files(__package__).joinpath(f"chat_templates/{name}.jinja"))


def describe(text: str, native: str | None) -> dict[str, Any]:
    """What a server's template is (adapted, `native`, or unrecognised) with its sha256;
    compared without trailing whitespace, which llama-server strips."""
    own = None if native is None else digest(native.rstrip())
    return {**identify(digest(text.rstrip()), own), "sha256": digest(text)}


def identify(sha256: str, native_sha256: str | None = None) -> dict[str, str]:
    """A template's name and protocol from the sha256 of the text a server applied."""
    for adapted in TEMPLATES.values():
        if sha256 in (adapted.sha256, digest(adapted.text.rstrip())):
            return {"name": adapted.name, "protocol": ADAPTED}
    if native_sha256 is not None and sha256 == native_sha256:
        return {"name": NATIVE, "protocol": NATIVE}
    return {"name": UNRECOGNISED, "protocol": UNRECOGNISED}


SHORT = {ADAPTED: "adapted template", NATIVE: "own template", UNRECOGNISED: "unknown template"}


def short_label(protocol: str | None) -> str:
    """A board cell's words for the protocol (its note under the table says them whole)."""
    return SHORT.get(protocol or "", "")


def protocol_note(protocols: set[str | None]) -> str:
    """What a board's template words mean, when a row says one ("" when none does)."""
    if not protocols - {None}:
        return ""
    return (
        f"Tool-call protocol: 'adapted template' is {ADAPTED_LABEL}; 'own template' is "
        f"{NATIVE_LABEL}. Each run's template, named with its sha256, is in its cassette's "
        "run.json and log (docs/local-models.md)."
    )
