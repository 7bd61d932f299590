"""A submitted cart with its agent card, scored with no model and no trace: the seed's
second way in. It becomes the same `Cart` a replay yields and goes through `grader.score`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from checkout_consent.grocery import dataset
from checkout_consent.grocery.actions import MAX_PACKS
from checkout_consent.grocery.grader import ISO_DATE, score
from checkout_consent.grocery.record import Efficiency, GroceryRecord
from checkout_consent.grocery.state import Cart, Line


class InvalidSubmission(ValueError):
    """A submission that cannot be scored (the seed's HTTP 400): names the bad field."""

    def __init__(self, field: str, why: str) -> None:
        super().__init__(f"field {field}: {why}")
        self.field = field


class _Strict(BaseModel):
    model_config = ConfigDict(frozen=True, strict=True, allow_inf_nan=False)


class SubmittedLine(_Strict):
    sku: str = Field(max_length=40)
    quantity: int = Field(ge=1, le=MAX_PACKS)
    dish: str | None = None


class SubmittedCart(_Strict):
    lines: list[SubmittedLine]
    questions_asked: int = Field(0, ge=0)
    substitutions_explained: list[str] = []
    omissions_flagged: list[str] = []
    order_attempted: bool = False


class AgentCard(_Strict, extra="allow"):
    """The seed's required card; `catalog_version` (optional) selects the catalog scored."""

    model: str
    tools: list[str]
    store_snapshot: str
    seed: int
    time_s: float = Field(ge=0)
    token_cost: float = Field(ge=0)
    catalog_version: Literal["1.0", "2.0", "3.0"] | None = None


class Submission(_Strict):
    task_id: str
    cart: SubmittedCart
    agent_card: AgentCard
    scored_on: str | None = Field(None, pattern=ISO_DATE)  # the dated tight-week rule's input


def _merged(lines: list[SubmittedLine]) -> tuple[Line, ...]:
    """Lines of the same sku summed into one, as the store's cart holds them."""
    out: dict[str, Line] = {}
    for ln in lines:
        old = out.get(ln.sku, Line(ln.sku, 0))
        out[ln.sku] = Line(ln.sku, old.quantity + ln.quantity, old.dish or ln.dish)
    return tuple(out.values())


def _parse(data: object) -> Submission:
    try:
        return Submission.model_validate(data)
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "submission"
        raise InvalidSubmission(where, first["msg"]) from None


def score_submission(data: Mapping[str, Any]) -> GroceryRecord:
    """Score a submitted cart with its agent card, no model and no trace. Hard fails come
    back flagged in the record; an unscorable submission raises InvalidSubmission."""
    sub = _parse(data)
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
    return score(brief, catalog, cart, scored_on=sub.scored_on, efficiency=Efficiency(
                 time_s=sub.agent_card.time_s, token_cost=sub.agent_card.token_cost),
                 task_catalog=dataset.load_catalog(brief.catalog_version))
