"""Grading, two ways in and one code path: a replayed trace or a submitted cart + agent card
both become a `Cart` and go through `scorer.score`."""

from __future__ import annotations

import math
from collections.abc import Mapping
from datetime import date
from typing import Any

from checkout_consent.core.family import RunInfo, Scenario
from checkout_consent.core.trace import Replay
from checkout_consent.grocery import dataset
from checkout_consent.grocery.actions import MAX_PACKS
from checkout_consent.grocery.record import SCORED_KEYS, Efficiency, GroceryRecord
from checkout_consent.grocery.scorer import score
from checkout_consent.grocery.state import Cart, Line, State

CARD_FIELDS = {"model": str, "tools": list, "store_snapshot": str, "seed": int,
               "time_s": float, "token_cost": float}


class InvalidSubmission(ValueError):
    """A submission that cannot be scored (the seed's HTTP 400): names the bad field."""


def grade(scenario: Scenario, replay: Replay[State], run: RunInfo | None = None) -> GroceryRecord:
    """Grade a replayed trace. A run that never handed the cart over, or whose replay does
    not reproduce what the agent saw, is flagged invalid_submission."""
    final = replay.final
    tokens = run.input_tokens + run.output_tokens if run else None
    efficiency = Efficiency(token_cost=None if tokens is None else float(tokens),
                            tool_calls=len(replay.calls))
    invalid = replay.mismatch is not None or not (final.cart.submitted
                                                  or final.cart.order_attempted)
    return score(dataset.brief_for(scenario), dataset.catalog_for(scenario), final.cart,
                 scored_on=dataset.scored_on(scenario), efficiency=efficiency, invalid=invalid)


def _need(data: Mapping[str, Any], name: str, kind: type, where: str) -> Any:
    if name not in data:
        raise InvalidSubmission(f"missing field {where}{name}")
    value = data[name]
    ok = (isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
          if kind is float else isinstance(value, kind)
          and (kind is bool or not isinstance(value, bool)))
    if not ok:
        raise InvalidSubmission(f"field {where}{name} must be {kind.__name__}, got {value!r}")
    return value


def _opt(data: Mapping[str, Any], name: str, kind: type, default: Any) -> Any:
    return _need(data, name, kind, "cart.") if name in data else default


def _line(raw: object, n: int, skus: Mapping[str, object]) -> Line:
    if not isinstance(raw, Mapping):
        raise InvalidSubmission(f"field cart.lines[{n}] must be an object")
    sku = _need(raw, "sku", str, f"cart.lines[{n}].")
    if sku not in skus:
        raise InvalidSubmission(f"field cart.lines[{n}].sku: unknown sku {sku!r}")
    qty = _need(raw, "quantity", int, f"cart.lines[{n}].")
    if not 1 <= qty <= MAX_PACKS:
        raise InvalidSubmission(f"field cart.lines[{n}].quantity must be 1 to {MAX_PACKS}")
    dish = raw.get("dish")
    if dish is not None and not isinstance(dish, str):
        raise InvalidSubmission(f"field cart.lines[{n}].dish must be str")
    return Line(sku, qty, dish)


def _merged(lines: list[Line]) -> tuple[Line, ...]:
    """Lines of the same sku summed into one, as the store's cart holds them."""
    out: dict[str, Line] = {}
    for ln in lines:
        old = out.get(ln.sku)
        out[ln.sku] = ln if old is None else Line(ln.sku, old.quantity + ln.quantity,
                                                  old.dish or ln.dish)
    return tuple(out.values())


def _names(cart: Mapping[str, Any], name: str) -> tuple[str, ...]:
    values = _opt(cart, name, list, [])
    if not all(isinstance(v, str) for v in values):
        raise InvalidSubmission(f"field cart.{name} must be a list of item names")
    return tuple(values)


def submitted_cart(cart: Mapping[str, Any], skus: Mapping[str, object]) -> Cart:
    raw = _need(cart, "lines", list, "cart.")
    return Cart(lines=_merged([_line(r, n, skus) for n, r in enumerate(raw)]),
                questions_asked=_opt(cart, "questions_asked", int, 0),
                substitutions_explained=_names(cart, "substitutions_explained"),
                omissions_flagged=_names(cart, "omissions_flagged"),
                order_attempted=bool(_opt(cart, "order_attempted", bool, False)), submitted=True)


def score_submission(data: Mapping[str, Any]) -> GroceryRecord:
    """Score a submitted cart with its agent card, no model and no trace. Hard fails come
    back flagged in the record; an unscorable submission raises InvalidSubmission."""
    if not isinstance(data, Mapping):
        raise InvalidSubmission("the submission must be an object")
    task_id = _need(data, "task_id", str, "")
    try:
        brief = dataset.load_brief(task_id)
    except KeyError:
        raise InvalidSubmission(f"field task_id: unknown task {task_id!r}") from None
    card = _need(data, "agent_card", Mapping, "")
    for name, kind in CARD_FIELDS.items():
        _need(card, name, kind, "agent_card.")
    version = card.get("catalog_version", brief.catalog_version)
    if version not in ("1.0", "2.0", "3.0"):
        raise InvalidSubmission(f"field agent_card.catalog_version: unknown {version!r}")
    catalog = dataset.load_catalog(version)
    cart = submitted_cart(_need(data, "cart", Mapping, ""), catalog.by_sku)
    try:
        when = date.fromisoformat(data["scored_on"]) if data.get("scored_on") else None
    except (TypeError, ValueError):
        raise InvalidSubmission("field scored_on must be an ISO date") from None
    eff = Efficiency(time_s=float(card["time_s"]), token_cost=float(card["token_cost"]))
    return score(brief, catalog, cart, scored_on=when, efficiency=eff)


def metrics(record: GroceryRecord) -> dict[str, float]:
    """Flat numbers for aggregation; a null profile value is left out."""
    out = {"score": record.score, "hard_fail": float(record.failed)}
    out |= {k: float(v) for k in SCORED_KEYS if (v := getattr(record.profile, k)) is not None}
    out |= {f"fail_{k}": float(v) for k, v in record.hard_fails.model_dump().items()}
    return out


def explain(record: GroceryRecord) -> str:
    fails = [k for k, v in record.hard_fails.model_dump().items() if v]
    lines = record.lines
    return (f"{record.task_id}: score {record.score:.2f}; "
            f"{len(lines.matched)} lines matched, {len(lines.missing)} missing, "
            f"{len(lines.wrong_unit)} wrong unit, {len(lines.extra)} extra; "
            f"effective ${record.totals.effective_cents / 100:.2f} of "
            f"${record.totals.budget_cents / 100:.2f}"
            + (f"; HARD FAIL {', '.join(fails)}" if fails else ""))
