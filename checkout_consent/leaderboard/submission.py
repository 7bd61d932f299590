"""A submission folder read as data: what it may hold, its agent card, its task set.

The folder may hold `submission.yaml`, `README.md`, `logs/*.eval`, cassette runs and
`carts/*.json`; anything else, a symlink, a special file or a folder over the caps is a
refusal (the walk is `runtime.untrusted`'s), and an .eval zip's declared sizes are capped
before anything is decompressed. The card is a stranger's file: read with a size cap, the
safe loader and no anchors or aliases (an alias bomb is refused before it is expanded),
into a strict schema. A submission's season is the newest whose task set it played."""

from __future__ import annotations

import datetime
import hashlib
import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, model_validator

from checkout_consent.core import names
from checkout_consent.core.contract import World
from checkout_consent.families import world_named
from checkout_consent.runtime import untrusted

MAX_FILES = 400
MAX_FILE_BYTES = 64 * 1024 * 1024
MAX_TOTAL_BYTES = 256 * 1024 * 1024
MAX_UNZIPPED_BYTES = 512 * 1024 * 1024
ALLOWED = (
    re.compile(r"submission\.yaml"),
    re.compile(r"README\.md"),
    re.compile(r"logs/[A-Za-z0-9._+-]{1,200}\.eval"),
    re.compile(r"carts/[a-z0-9._-]{1,120}\.json"),  # carts: stored, never ranked
    re.compile(
        r"cassettes/[A-Za-z0-9._-]{1,120}/(run\.json|cassette\.json\.gz|[A-Za-z0-9._-]{1,160}"
        r"\.(yaml\.gz|golden\.json|golden\.json\.gz))"
    ),
)
CARD_NAME = "submission.yaml"
CARD_MAX_BYTES = 64 * 1024
SLUG = r"^[a-z0-9][a-z0-9._-]{0,63}$"


@dataclass
class Listing:
    """The files of a folder (relative posix paths) and every reason it is refused."""

    files: list[str] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)

    def logs(self) -> list[str]:
        return [f for f in self.files if f.startswith("logs/")]

    def cassette_runs(self) -> list[str]:
        return sorted(
            {"/".join(f.split("/")[:2]) for f in self.files if f.startswith("cassettes/")}
        )


def _sizes(root: Path, out: Listing, total: int) -> None:
    if total > MAX_TOTAL_BYTES:
        out.refusals.append(f"the folder holds over {MAX_TOTAL_BYTES >> 20} MB")
    for log in out.logs():
        try:
            with zipfile.ZipFile(root / log) as archive:
                unzipped = sum(i.file_size for i in archive.infolist())
        except (zipfile.BadZipFile, OSError):
            out.refusals.append(f"{log}: not an Inspect .eval log (not a zip)")
            continue
        if unzipped > MAX_UNZIPPED_BYTES:
            out.refusals.append(f"{log}: unzips to over {MAX_UNZIPPED_BYTES >> 20} MB")


def list_folder(root: Path) -> Listing:
    """Every file of the submission at `root`, and every reason to refuse the folder."""
    out = Listing()
    try:
        entries = untrusted.walk(root, max_entries=MAX_FILES, limit=MAX_FILE_BYTES, depth=2)
    except untrusted.Refused as err:
        out.refusals.append(str(err))
        return out
    for entry in entries:
        if entry.why is not None:
            out.refusals.append(f"{entry.rel}: {entry.why}")
        elif not entry.folder and any(p.fullmatch(entry.rel) for p in ALLOWED):
            out.files.append(entry.rel)
        elif not entry.folder:
            out.refusals.append(
                f"{entry.rel}: not a file a submission may hold "
                "(see docs/leaderboard.md, 'Submitting')"
            )
    _sizes(root, out, sum(e.size for e in entries))
    return out


def folder_digest(folder: Path) -> str:
    """The sha256 of a folder's plain files, names and contents ("" for one refused whole)."""
    h = hashlib.sha256()
    try:
        entries = untrusted.walk(folder, max_entries=MAX_FILES, limit=MAX_FILE_BYTES)
    except untrusted.Refused:
        return ""
    for found in entries:
        if not found.folder and found.why is None:
            h.update(found.rel.encode() + b"\0")
            h.update(hashlib.sha256(untrusted.read_bytes(found.path, MAX_FILE_BYTES)).digest())
    return h.hexdigest()


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _readable(text: str) -> str:
    """A name the board shows, refused with an invisible character or mixed scripts."""
    why = names.problem(text)
    if why is not None:
        raise ValueError(f"the name {why}")
    return text


Shown = Annotated[str, AfterValidator(_readable)]


def look_alikes(root: Path) -> list[str]:
    """Why the folder's name would read as another submission's (`claude-0l`, `claude-01`)."""
    try:
        others = [p.name for p in root.parent.iterdir() if p.is_dir() and p.name != root.name]
    except OSError:
        return []
    mine = set(names.keys(root.name))
    return [
        f"the folder name {root.name!r} reads as {other!r}, another submission's: rename it"
        for other in sorted(others)
        if mine & set(names.keys(other))
    ][:3]


class ModelInfo(Strict):
    id: Shown = Field(min_length=1, max_length=200)  # the Inspect model name, e.g. openai/gpt-4.1
    provider: str = Field(min_length=1, max_length=100)


class AgentInfo(Strict):
    harness: Shown = Field(min_length=1, max_length=200)
    tools: list[str] = Field(max_length=100)
    # through the model's own chat template or an adapted one (None: no template applies)
    tool_protocol: Literal["native", "adapted", "unrecognised"] | None = None


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
    # controls (reference rows) and humans (`human/web` runs) are never ranked with models
    kind: Literal["model", "control", "human"]
    model: ModelInfo
    agent: AgentInfo
    date: datetime.date
    suite_version: str = Field(min_length=1, max_length=40)
    world_version: str = Field(min_length=1, max_length=60)
    task_set: str = Field(pattern=SLUG)  # "public"; with seasons: "season-1" .. too
    epochs: int = Field(ge=1, le=32)
    wall_time_seconds: float = Field(ge=0, allow_inf_nan=False)
    # a model's or a control's card states its tokens and cost; a person's card, its time
    tokens: Tokens | None = None
    cost: Cost | None = None
    contact: str = Field(min_length=1, max_length=200)
    # the family's own card section (`Board.card_section`), written back under its key
    section: dict[str, Any] | None = Field(default=None, exclude=True)
    # the same model's earlier submission, whose samples this one may equal (`copied_from`)
    resubmission_of: str | None = Field(default=None, pattern=SLUG)

    @model_validator(mode="after")
    def _human_is_human(self) -> Card:
        """A person's run is `kind: human` and only that: never ranked as a model."""
        if (self.kind == "human") != self.model.id.startswith("human/"):
            raise ValueError("kind human is for a human/ model's run, and such a run is human")
        stated = self.tokens is not None or self.cost is not None
        if self.kind == "human" and stated:
            raise ValueError(
                "a human card states its time (wall_time_seconds), not tokens or a cost: "
                "leave out tokens and cost"
            )
        if self.kind != "human" and (self.tokens is None or self.cost is None):
            raise ValueError(f"a {self.kind}'s card states its tokens and cost")
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
    """The card section a family declares on its board (none for an unknown family)."""
    try:
        declared = world_named(str(name)).board.card_section
    except KeyError:
        return None, None
    return (None, None) if declared is None else declared


def read_card(directory: Path) -> Card:
    try:
        raw = untrusted.read_bytes(directory / CARD_NAME, CARD_MAX_BYTES)
    except untrusted.Refused as err:  # every submission needs its agent card
        raise CardError([f"{CARD_NAME}: {err.why}"]) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise CardError([f"{CARD_NAME}: not UTF-8 text"]) from None
    return parse_card(text)


def dump_card(card: Card) -> str:
    """The card as the YAML a submitter commits (stable key order)."""
    data = card.model_dump(mode="json")
    key, _ = _section_of(card.family)
    if key is not None and card.section is not None:
        data[key] = card.section
    for key in ("resubmission_of", "tokens", "cost"):
        if data[key] is None:
            del data[key]
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True)


def world_of(name: str, world_version: str) -> World | None:
    """The world `name` if its version is `world_version` (None: none of this suite's)."""
    try:
        got = world_named(name)
    except KeyError:
        return None
    return got if got.world_version == world_version else None


def seasons(name: str) -> tuple[int, ...]:
    return tuple(sorted(world_named(name).board.seasons()))


def season_tasks(name: str, season: int) -> frozenset[str]:
    """The task ids a season's board is played on: its own and every earlier season's."""
    added = world_named(name).board.seasons()
    return frozenset(t for s in sorted(added) if s <= season for t in added[s])


def task_sets(name: str) -> dict[str, frozenset[str] | None]:
    """The task sets a card may declare: "public" (None: all of it) and any "season-<k>"."""
    sets: dict[str, frozenset[str] | None] = {"public": None}
    sets |= {f"season-{s}": season_tasks(name, s) for s in seasons(name)}
    return sets


def season_of(name: str, task_set: str) -> int | None:
    """The season a submission belongs to (None for a world without seasons)."""
    known = seasons(name)
    if not known:
        return None
    return int(task_set.removeprefix("season-")) if task_set.startswith("season-") else known[-1]
