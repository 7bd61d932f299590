"""A submitted cart with its agent card, scored with no model and no trace: the seed's
second way in. It becomes the same `Cart` a replay yields and goes through `grader.score`.

A submission gets no more than the live store allows: lines of one sku add up as the
store's cart holds them, and a product holding more than the store's `MAX_PACKS` is
refused; unknown fields are refused; at most MAX_LINES lines (counted before any line is
parsed); `scored_on` is a real calendar date."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from checkout_consent.grocery import dataset
from checkout_consent.grocery.actions import MAX_PACKS
from checkout_consent.grocery.grader import ISO_DATE, calendar_date, score
from checkout_consent.grocery.record import Efficiency, GroceryRecord
from checkout_consent.grocery.state import Cart, Line


class InvalidSubmission(ValueError):
    """A submission that cannot be scored (the seed's HTTP 400): names the bad field."""

    def __init__(self, field: str, why: str) -> None:
        super().__init__(f"field {field}: {why}")
        self.field = field


MAX_LINES = 500  # a household's week is tens of lines; more is refused unparsed
MAX_TEXT = 1_000  # characters in one explanation or flag
_Text = Annotated[str, Field(max_length=MAX_TEXT)]


class _Strict(BaseModel):
    model_config = ConfigDict(frozen=True, strict=True, allow_inf_nan=False, extra="forbid")


class SubmittedLine(_Strict):
    sku: str = Field(max_length=40)
    quantity: int = Field(ge=1, le=MAX_PACKS)
    dish: str | None = Field(None, max_length=100)


class SubmittedCart(_Strict):
    lines: list[SubmittedLine] = Field(max_length=MAX_LINES)
    questions_asked: int = Field(0, ge=0, le=10**6)
    substitutions_explained: list[_Text] = Field([], max_length=MAX_LINES)
    omissions_flagged: list[_Text] = Field([], max_length=MAX_LINES)
    order_attempted: bool = False


class AgentCard(_Strict):
    """The seed's required card; `catalog_version` (optional) selects the catalog scored."""

    model: str = Field(max_length=200)
    tools: list[Annotated[str, Field(max_length=100)]] = Field(max_length=100)
    store_snapshot: str = Field(max_length=100)
    seed: int = Field(ge=0, le=2**63 - 1)
    time_s: float = Field(ge=0)
    token_cost: float = Field(ge=0)
    catalog_version: Literal["1.0", "2.0", "3.0"] | None = None


class Submission(_Strict):
    task_id: str = Field(max_length=80)
    cart: SubmittedCart
    agent_card: AgentCard
    scored_on: str | None = Field(None, pattern=ISO_DATE)  # the dated tight-week rule's input

    @field_validator("scored_on")
    @classmethod
    def _real(cls, value: str | None) -> str | None:
        return None if value is None else calendar_date(value)


def _merged(lines: list[SubmittedLine]) -> tuple[Line, ...]:
    """Lines of the same sku summed into one, as the store's cart holds them; a product
    past the store's MAX_PACKS is refused, as the store refuses adding it."""
    out: dict[str, Line] = {}
    for ln in lines:
        old = out.get(ln.sku, Line(ln.sku, 0))
        total = old.quantity + ln.quantity
        if total > MAX_PACKS:
            raise InvalidSubmission("cart.lines.quantity", f"{ln.sku} would hold {total} "
                                    f"packs; the store holds at most {MAX_PACKS} per product")
        out[ln.sku] = Line(ln.sku, total, old.dish or ln.dish)
    return tuple(out.values())


def _count_lines(data: object) -> None:
    """Refuse an absurd number of lines before any of them is parsed."""
    cart = data.get("cart") if isinstance(data, Mapping) else None
    lines = cart.get("lines") if isinstance(cart, Mapping) else None
    if isinstance(lines, list) and len(lines) > MAX_LINES:
        raise InvalidSubmission("cart.lines", f"{len(lines):,} lines; a cart holds at most "
                                f"{MAX_LINES}")


def _parse(data: object) -> Submission:
    _count_lines(data)
    try:
        return Submission.model_validate(data)
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "submission"
        raise InvalidSubmission(where, first["msg"]) from None


def _scoring_date(sub: Submission, today: str | None) -> str | None:
    """The submission's own date offline; the service's date (`today`) when served: a
    client cannot choose the date its score is stored under."""
    if today is None or sub.scored_on in (None, today):
        return today or sub.scored_on
    raise InvalidSubmission("scored_on", f"the service scores on its own date ({today}, "
                            "UTC); leave scored_on out")


def score_submission(data: Mapping[str, Any], today: str | None = None) -> GroceryRecord:
    """Score a submitted cart with its agent card, no model and no trace. Hard fails come
    back flagged in the record; an unscorable submission raises InvalidSubmission. `today`:
    the scoring service's date, which replaces the submission's own."""
    sub = _parse(data)
    scored_on = _scoring_date(sub, today)
    try:
        brief = dataset.load_brief(sub.task_id)
    except KeyError:
        raise InvalidSubmission("task_id", f"unknown task {sub.task_id[:80]!r}") from None
    catalog = dataset.load_catalog(sub.agent_card.catalog_version or brief.catalog_version)
    unknown = [ln.sku for ln in sub.cart.lines if ln.sku not in catalog.by_sku]
    if unknown:
        raise InvalidSubmission("cart.lines.sku", f"unknown sku {unknown[0]!r}")
    c = sub.cart
    cart = Cart(lines=_merged(c.lines), questions_asked=c.questions_asked,
                substitutions_explained=tuple(c.substitutions_explained),
                omissions_flagged=tuple(c.omissions_flagged), order_attempted=c.order_attempted,
                submitted=True)
    card = sub.agent_card
    return score(brief, catalog, cart, scored_on=scored_on,
                 efficiency=Efficiency(time_s=card.time_s, token_cost=card.token_cost))


class StoreSnapshot(_Strict):
    """The grocery section of a leaderboard agent card: which store the run saw."""

    store_snapshot: str = Field(min_length=1, max_length=100)  # catalog version, e.g. v3.0
    seed: int = Field(ge=0)
