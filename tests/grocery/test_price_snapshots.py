"""The seed's rule, in its words: "The cart's own price snapshots are ignored." A cart whose
lines carry `price_cents` is accepted wherever a cart enters (the pure scorer, the CLI, the
HTTP API, the MCP server, the committed example) and scores exactly as the same cart
without them; a field the seed does not name is still refused."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient
from mcp import Client

from checkout_consent.grocery import WORLD, dataset
from checkout_consent.grocery.submission import InvalidSubmission, score_submission
from checkout_consent.serve.api.app import create_app
from checkout_consent.serve.api.service import Service
from checkout_consent.serve.api.storage import Storage
from checkout_consent.serve.mcp import build
from tests.grocery.helpers import reference_submission
from tests.grocery.test_cli import EXAMPLE, score_cart

SEED_RULE = "The cart's own price snapshots are ignored."
TASK = "normal-week"


def _priced(data: dict[str, Any], price: Any) -> dict[str, Any]:
    """`data` with every line carrying a price snapshot `price(list price)`."""
    catalog = dataset.load_catalog(dataset.load_brief(TASK).catalog_version)
    out = copy.deepcopy(data)
    for line in out["cart"]["lines"]:
        line["price_cents"] = price(catalog.by_sku[line["sku"]].price_cents)
    return out


# snapshots that agree with the catalog, that claim everything is free, and that are absurd
SNAPSHOTS = [lambda c: c, lambda c: 0, lambda c: 10**9]


@pytest.mark.parametrize("price", SNAPSHOTS, ids=["catalog", "free", "absurd"])
def test_the_carts_own_price_snapshots_are_ignored__the_record_is_the_unpriced_one(
    price: Any,
) -> None:
    plain = reference_submission(TASK)
    assert score_submission(_priced(plain, price)) == score_submission(plain)


def test_the_carts_own_price_snapshots_are_ignored__a_field_the_seed_does_not_name_is_refused() -> (
    None
):
    data = reference_submission(TASK)
    data["cart"]["lines"][0]["price_usd"] = 3.49
    with pytest.raises(InvalidSubmission, match="Extra inputs are not permitted") as refused:
        score_submission(data)
    assert refused.value.field == "cart.lines.0.price_usd"
    data = _priced(reference_submission(TASK), lambda c: "3.49")  # a snapshot is whole cents
    with pytest.raises(InvalidSubmission) as refused:
        score_submission(data)
    assert refused.value.field == "cart.lines.0.price_cents"


def test_the_carts_own_price_snapshots_are_ignored__by_the_cli_and_the_committed_example(
    tmp_path: Path,
) -> None:
    example = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    assert all("price_cents" in line for line in example["cart"]["lines"])
    plain = copy.deepcopy(example)
    for line in plain["cart"]["lines"]:
        del line["price_cents"]
    out = score_cart(tmp_path, _priced(example, lambda c: 0))
    assert out.returncode == 0, out.stderr
    assert WORLD.score_submission is not None  # the world's own scorer, as `score --cart`'s
    assert json.loads(out.stdout) == WORLD.score_submission(plain, None)


async def _mcp(service: Service, body: dict[str, Any], token: str) -> Any:
    async with Client(build(service)) as client:
        return await client.call_tool(
            "score_answer", {"family": "grocery", "submission": body, "agent_token": token}
        )


def test_the_carts_own_price_snapshots_are_ignored__by_the_http_api_and_mcp(
    tmp_path: Path,
) -> None:
    service = Service(Storage(str(tmp_path / "s.db")))
    body = {**_priced(reference_submission(TASK), lambda c: 0), "agent": {"name": "bot"}}
    want = score_submission(reference_submission(TASK)).score
    with TestClient(create_app(service)) as client:
        answer = client.post("/v1/grocery/score", content=json.dumps(body).encode())
    assert answer.status_code == 200, answer.text
    assert answer.json()["record"]["score"] == want == 1.0
    token = answer.json()["agent_token"]  # the first submission claimed the name "bot"
    result = anyio.run(_mcp, service, body, token)
    assert not result.is_error, result.content
    scored = json.loads("".join(getattr(c, "text", "") for c in result.content))
    assert scored["record"]["score"] == want and service.storage.count() == 2


def test_the_carts_own_price_snapshots_are_ignored__the_cart_format_says_so() -> None:
    readme = (Path(dataset.__file__).parent / "README.md").read_text(encoding="utf-8")
    row = next(line for line in readme.splitlines() if line.startswith("| `cart.lines` |"))
    assert (
        "`price_cents`" in row.replace('"price_cents"', "`price_cents`") and SEED_RULE[:-1] in row
    )
