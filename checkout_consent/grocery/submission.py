"""A submitted cart with its agent card, scored with no model and no trace: the seed's
second way in. It becomes the same `Cart` a replay yields and goes through `grader.score`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError

from checkout_consent.core import parse_date
from checkout_consent.grocery import dataset
from checkout_consent.grocery.actions import MAX_PACKS
from checkout_consent.grocery.grader import score
from checkout_consent.grocery.record import Efficiency, GroceryRecord
from checkout_consent.grocery.state import Cart, Line


class InvalidSubmission(ValueError):
    """A submission that cannot be scored (the seed's HTTP 400): names the bad field."""

    def __init__(self, field: str, why: str) -> None:
        super().__init__(f"field {field}: {why}")
        self.field = field


class _Strict(BaseModel):
    model_config = ConfigDict(frozen=True, strict=True, allow_inf_nan=False, extra="forbid")


class SubmittedLine(_Strict):
    sku: str = Field(max_length=40)
    quantity: int = Field(ge=1, le=MAX_PACKS)
    dish: str | None = Field(None, max_length=100)
    # The seed: "The cart's own price snapshots are ignored." A field the seed names is
    # accepted (a whole number of cents, as a cart records it) and never read: prices come
    # from the catalog alone.
    price_cents: int | None = Field(None, ge=0, le=10**9)


class SubmittedCart(_Strict):
    lines: list[SubmittedLine]
    questions_asked: int = Field(0, ge=0, le=10**6)
    substitutions_explained: list[str] = []
    omissions_flagged: list[str] = []
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
    task: str = Field(max_length=80)  # named `task` as in every request (the record: task_id)
    cart: SubmittedCart
    agent_card: AgentCard
    scored_on: Annotated[str, AfterValidator(parse_date)] | None = None  # the dated rule's


def _merged(lines: list[SubmittedLine], skus: Mapping[str, Any]) -> tuple[Line, ...]:
    """Lines of the same sku summed into one, as the store's cart holds them."""
    out: dict[str, Line] = {}
    for ln in lines:
        if ln.sku not in skus:
            raise InvalidSubmission("cart.lines.sku", f"unknown sku {ln.sku!r}")
        old = out.get(ln.sku, Line(ln.sku, 0))
        if (total := old.quantity + ln.quantity) > MAX_PACKS:  # as the store refuses it
            raise InvalidSubmission("cart.lines.quantity", f"{ln.sku}: over {MAX_PACKS} packs")
        out[ln.sku] = Line(ln.sku, total, old.dish or ln.dish)
    return tuple(out.values())


def _parse(data: object) -> Submission:  # every missing field named at once
    try:
        return Submission.model_validate(data)
    except ValidationError as err:
        named = [(".".join(map(str, e["loc"])) or "submission", e) for e in err.errors()]
        missing = ", ".join(w for w, e in named if e["type"] == "missing")
        raise InvalidSubmission(
            missing or named[0][0], "missing" if missing else named[0][1]["msg"]
        ) from None


def score_submission(data: Mapping[str, Any], today: str | None = None) -> GroceryRecord:
    """Score a submitted cart with its agent card, no model and no trace (hard fails flagged;
    InvalidSubmission if unscorable), on `today` when the scoring service gives its date."""
    sub = _parse(data)
    if today is not None and sub.scored_on not in (None, today):
        raise InvalidSubmission(
            "scored_on", f"the service scores on its own date ({today}): leave scored_on out"
        )
    try:
        brief = dataset.load_brief(sub.task)
    except KeyError:
        raise InvalidSubmission("task", f"unknown task {sub.task[:80]!r}") from None
    catalog = dataset.load_catalog(sub.agent_card.catalog_version or brief.catalog_version)
    c = sub.cart
    cart = Cart(
        lines=_merged(c.lines, catalog.by_sku),
        questions_asked=c.questions_asked,
        substitutions_explained=tuple(c.substitutions_explained),
        omissions_flagged=tuple(c.omissions_flagged),
        order_attempted=c.order_attempted,
        submitted=True,
    )
    card = sub.agent_card
    return score(
        brief,
        catalog,
        cart,
        scored_on=today or sub.scored_on,
        efficiency=Efficiency(time_s=card.time_s, token_cost=card.token_cost),
        task_catalog=dataset.load_catalog(brief.catalog_version),
    )


class StoreSnapshot(_Strict):
    """The grocery section of a leaderboard agent card: which store the run saw."""

    store_snapshot: str = Field(min_length=1, max_length=100)  # catalog version, e.g. v3.0
    seed: int = Field(ge=0)
