"""`submission.yaml`, the agent card: a strict schema with one clear line per error.

The card is a stranger's file: read with a size cap, PyYAML's safe loader, and no anchors or
aliases (an alias bomb is refused before it is expanded)."""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

CARD_NAME = "submission.yaml"
CARD_MAX_BYTES = 64 * 1024
SLUG = r"^[a-z0-9][a-z0-9._-]{0,63}$"


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ModelInfo(Strict):
    id: str = Field(min_length=1, max_length=200)  # the Inspect model name, e.g. openai/gpt-4.1
    provider: str = Field(min_length=1, max_length=100)


class AgentInfo(Strict):
    harness: str = Field(min_length=1, max_length=200)
    tools: list[str] = Field(max_length=100)


class Tokens(Strict):
    input: int = Field(ge=0)
    output: int = Field(ge=0)


class Cost(Strict):
    list_usd: float | None = Field(ge=0, allow_inf_nan=False)  # None: no list price known
    normalized_usd: float = Field(ge=0, allow_inf_nan=False)


class Card(Strict):
    """What the submitter states. The board ranks re-graded figures, never these."""

    schema_version: Literal[1]
    submission_id: str = Field(pattern=SLUG)
    family: str = Field(pattern=SLUG)
    # controls are reference rows and humans (`human/web` runs) rows of their own: neither is
    # ranked with the models
    kind: Literal["model", "control", "human"]
    model: ModelInfo
    agent: AgentInfo
    date: datetime.date
    suite_version: str = Field(min_length=1, max_length=40)
    world_version: str = Field(min_length=1, max_length=60)
    task_set: str = Field(pattern=SLUG)  # "public"; with seasons: "season-1" .. too
    epochs: int = Field(ge=1, le=32)
    wall_time_seconds: float = Field(ge=0, allow_inf_nan=False)
    tokens: Tokens
    cost: Cost
    contact: str = Field(min_length=1, max_length=200)
    # the family's own card section (`Board.card_section`), validated by its model and
    # written back under its key
    section: dict[str, Any] | None = Field(default=None, exclude=True)
    # a re-submission of the same model: the id of its earlier submission in this family,
    # whose samples this one may then equal (leaderboard/copies.py)
    resubmission_of: str | None = Field(default=None, pattern=SLUG)

    @model_validator(mode="after")
    def _human_is_human(self) -> Card:
        """A person's run is `kind: human` and only that: never ranked as a model."""
        if (self.kind == "human") != self.model.id.startswith("human/"):
            raise ValueError("kind human is for a human/ model's run, and such a run is human")
        return self


class CardError(ValueError):
    """The card cannot be read or does not match the schema; `lines` says why."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__("; ".join(lines))
        self.lines = lines


def _refuse_aliases(text: str) -> None:
    for event in yaml.parse(text, Loader=yaml.SafeLoader):
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
            raise CardError([f"{CARD_NAME}: YAML anchors and aliases are not allowed"])


def _lines(error: ValidationError, section: str | None = None) -> list[str]:
    where = "" if error.title == "Card" or section is None else f"{section}."
    return [
        f"{CARD_NAME}: {where}{'.'.join(str(p) for p in e['loc']) or '(top)'}: {e['msg']}"
        for e in error.errors()
    ]


def parse_card(text: str) -> Card:
    """The card in `text`, or CardError with one line per problem."""
    try:
        _refuse_aliases(text)
        data = yaml.safe_load(text)
    except yaml.YAMLError as err:
        where = getattr(err, "problem_mark", None)
        at = f" (line {where.line + 1})" if where is not None else ""
        raise CardError([f"{CARD_NAME}: not valid YAML{at}"]) from None
    if not isinstance(data, dict):
        raise CardError([f"{CARD_NAME}: expected a mapping of fields, got {type(data).__name__}"])
    key, model = _section_of(data.get("family"))
    section = data.pop(key, None) if key is not None else None
    try:
        card = Card.model_validate(data)
        if key is not None and model is not None:
            if section is None:
                raise CardError([f"{CARD_NAME}: {key}: required for this family"])
            section = model.model_validate(section).model_dump(mode="json")
    except ValidationError as err:
        raise CardError(_lines(err, key)) from None
    return card.model_copy(update={"section": section})


def _section_of(name: object) -> tuple[str | None, type[BaseModel] | None]:
    """The card section a family declares on its board (none for an unknown family: the
    card is then refused by its other fields)."""
    from checkout_consent.families import family, member

    try:
        declared = member(family(str(name))).board.card_section
    except KeyError:
        return None, None
    return (None, None) if declared is None else declared


def read_card(directory: Path) -> Card:
    path = directory / CARD_NAME
    if not path.is_file() or path.is_symlink():
        raise CardError([f"{CARD_NAME}: missing (every submission needs its agent card)"])
    if path.stat().st_size > CARD_MAX_BYTES:
        raise CardError([f"{CARD_NAME}: larger than {CARD_MAX_BYTES // 1024} KB"])
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        raise CardError([f"{CARD_NAME}: not UTF-8 text"]) from None
    return parse_card(text)


def dump_card(card: Card) -> str:
    """The card as the YAML a submitter commits (stable key order)."""
    data = card.model_dump(mode="json")
    key, _ = _section_of(card.family)
    if key is not None and card.section is not None:
        data[key] = card.section
    if data["resubmission_of"] is None:
        del data["resubmission_of"]
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
