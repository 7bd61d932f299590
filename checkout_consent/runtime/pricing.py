"""Token cost: real list prices from pricing.yaml, and the suite's normalised rates."""

from __future__ import annotations

import functools
from pathlib import Path

import yaml

NORMALIZED_INPUT_USD_PER_MTOK = 5.0
NORMALIZED_OUTPUT_USD_PER_MTOK = 25.0


@functools.cache
def _table() -> dict[str, tuple[float, float]]:
    data = yaml.safe_load((Path(__file__).parent / "pricing.yaml").read_text())
    return {m: (float(p["input"]), float(p["output"])) for m, p in data["models"].items()}


def _cost(input_tokens: int, output_tokens: int, rates: tuple[float, float]) -> float:
    return round((input_tokens * rates[0] + output_tokens * rates[1]) / 1_000_000, 6)


def eval_cost_usd(model_id: str, input_tokens: int, output_tokens: int) -> float | None:
    """Cost at the model's list price, or None for a model the table does not list."""
    rates = _table().get(model_id)
    if rates is None and model_id.startswith("control/"):
        rates = (0.0, 0.0)
    return None if rates is None else _cost(input_tokens, output_tokens, rates)


def normalized_cost_usd(input_tokens: int, output_tokens: int) -> float:
    """Cost at fixed reference rates ($5/Mtok in, $25/Mtok out): comparable across models."""
    rates = (NORMALIZED_INPUT_USD_PER_MTOK, NORMALIZED_OUTPUT_USD_PER_MTOK)
    return _cost(input_tokens, output_tokens, rates)
