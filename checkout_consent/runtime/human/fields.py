"""A tool's JSON schema as form fields, and a submitted form checked against it again (the
browser is a stranger): a malformed call is one line saying what is wrong, never sent."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from inspect_ai.tool import ToolInfo

MAX_TEXT = 20_000  # characters one field may carry
KINDS = ("string", "integer", "number", "boolean", "array", "object")
# a string argument whose description lists its values (`One of "a", "b" or "c".`) is a choice
LISTED = re.compile(r'one of ((?:"[^"]{1,80}", )*"[^"]{1,80}" or "[^"]{1,80}")', re.IGNORECASE)


@dataclass(frozen=True)
class Field:
    """One argument of a tool as the page shows it."""

    name: str
    kind: str  # one of KINDS
    required: bool
    nullable: bool
    description: str
    enum: tuple[Any, ...] = ()


@dataclass(frozen=True)
class Form:
    """One tool as a form."""

    tool: str
    description: str
    fields: tuple[Field, ...]


class Refused(ValueError):
    """The form does not make a valid call: the page's one line, and the `field` it is about."""

    def __init__(self, line: str, field: str = "") -> None:
        super().__init__(line)
        self.field = field


def _kind(param: Any) -> tuple[str, bool]:
    """The field kind of a parameter schema, and whether it may be null."""
    types = [param.type] if param.type else [a.type for a in param.anyOf or []]
    nullable = "null" in types
    concrete = [t for t in types if t and t != "null"]
    if len(concrete) != 1 or concrete[0] not in KINDS:
        return "json", nullable  # any other schema: JSON text, checked as JSON
    return concrete[0], nullable


def _listed(kind: str, description: str) -> tuple[str, ...]:
    """The values a string argument's description lists as its only ones (none: free text)."""
    found = LISTED.search(description) if kind == "string" else None
    return tuple(re.findall(r'"([^"]+)"', found.group(1))) if found else ()


def form_of(info: ToolInfo) -> Form:
    params = info.parameters
    fields = []
    for name, param in params.properties.items():
        kind, nullable = _kind(param)
        described = param.description or ""
        fields.append(
            Field(
                name=name,
                kind=kind,
                required=name in params.required,
                nullable=nullable,
                description=described,
                enum=tuple(param.enum or ()) or _listed(kind, described),
            )
        )
    return Form(info.name, info.description, tuple(fields))


def _number(field: Field, text: str) -> int | float:
    """A number as a model's JSON would carry it (an integer field takes `1.0` as 1)."""
    try:
        value = json.loads(text)
    except ValueError:
        value = None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise Refused(f"{field.name}: {text[:40]!r} is not a number", field.name)
    if field.kind == "integer" and not isinstance(value, int):
        if not value.is_integer():
            raise Refused(f"{field.name}: {text[:40]!r} is not a whole number", field.name)
        value = int(value)
    return value


def _json(field: Field, text: str) -> Any:
    try:
        value = json.loads(text)
    except ValueError:
        raise Refused(f"{field.name}: not valid JSON", field.name) from None
    wanted = {"array": list, "object": dict}.get(field.kind)
    if wanted is not None and not isinstance(value, wanted):
        raise Refused(f"{field.name}: expected a JSON {field.kind}", field.name)
    return value


def parse_value(field: Field, text: str) -> Any:
    """The argument value of one filled field (its text as typed)."""
    if field.kind == "string":
        value: Any = text
    elif field.kind in ("integer", "number"):
        value = _number(field, text.strip())
    elif field.kind == "boolean":
        if text not in ("true", "false"):
            raise Refused(f"{field.name}: choose true or false", field.name)
        value = text == "true"
    else:
        value = _json(field, text)
    if field.enum and value not in field.enum:
        raise Refused(f"{field.name}: {text[:40]!r} is not one of {list(field.enum)}", field.name)
    return value


def parse_call(form: Form, submitted: Mapping[str, str]) -> dict[str, Any]:
    """The arguments of a call from a submitted form (Refused: the one line why); an empty
    optional field is left out, a ticked "null" box sends null."""
    known = {f"arg.{f.name}" for f in form.fields}
    known |= {f"null.{f.name}" for f in form.fields if f.nullable}
    unknown = set(submitted) - known
    if unknown:
        raise Refused(f"{sorted(unknown)[0][:60]!r} is not an argument of {form.tool}")
    args: dict[str, Any] = {}
    for field in form.fields:
        text = submitted.get(f"arg.{field.name}", "")
        if len(text) > MAX_TEXT:
            raise Refused(f"{field.name}: longer than {MAX_TEXT:,} characters", field.name)
        if field.nullable and submitted.get(f"null.{field.name}") == "on":
            args[field.name] = None
        elif text == "":
            if field.required:
                raise Refused(f"{field.name}: required", field.name)
        else:
            args[field.name] = parse_value(field, text)
    return args


def check_args(form: Form, args: object) -> dict[str, Any]:
    """Arguments read back from a journal, checked against the same schema."""
    if not isinstance(args, dict) or not all(isinstance(k, str) for k in args):
        raise Refused(f"{form.tool}: arguments are not a mapping")
    known = {f.name: f for f in form.fields}
    for name, value in args.items():
        field = known.get(name)
        if field is None:
            raise Refused(f"{name[:60]!r} is not an argument of {form.tool}")
        if value is None and not field.nullable:
            raise Refused(f"{name}: may not be null")
        text = value if isinstance(value, str) else json.dumps(value)
        if value is not None and parse_value(field, text) != value:
            raise Refused(f"{name}: {text[:40]!r} does not fit its schema")
    missing = [f.name for f in form.fields if f.required and f.name not in args]
    if missing:
        raise Refused(f"{missing[0]}: required")
    return dict(args)
