"""Whatever a stranger's trace holds (any tool name, any JSON arguments, for any family's
real tools), scoring either stores a record or refuses it naming a field: never another
exception (which the API would answer 5xx)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from checkout_consent.families import WORLDS
from checkout_consent.serve.api.service import Service
from checkout_consent.serve.api.storage import Storage
from checkout_consent.serve.api.submission import Invalid
from tests.rows import rows

# trace families only (shopkit builds in a sandbox: slow); cart families are attacked below
FAST = [f for f in WORLDS if f.name != "shopkit" and f.score_submission is None]
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=30),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)


@st.composite
def hostile_call(draw: Any, world: Any) -> dict[str, Any]:
    tool = draw(st.sampled_from([*world.actions, "no_such_tool"]))
    keys = st.sampled_from(
        [
            "order_id",
            "line_id",
            "amount",
            "quantity",
            "product_id",
            "price",
            "supplier_id",
            "text",
            "path",
            "email_id",
            "x",
        ]
    )
    return {"tool": tool, "args": draw(st.dictionaries(keys, VALUES, max_size=4))}


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Service:
    return Service(Storage(str(tmp_path_factory.mktemp("hostile") / "s.db")))


@settings(deadline=None)
@given(data=st.data())
def test_score__hostile_traces_are_stored_or_refused_never_crash(
    service: Service, data: Any
) -> None:
    world = data.draw(st.sampled_from(FAST))
    calls = data.draw(st.lists(hostile_call(world), max_size=6))
    body = json.dumps({"task": rows(world.name).task, "calls": calls}).encode()
    before = service.storage.count()
    try:
        row = service.score(world.name, body)
    except Invalid as refused:
        assert refused.field and service.storage.count() == before
    else:
        assert service.submission(row.id).record == row.record


@settings(deadline=None)
@given(
    cart=st.dictionaries(
        st.sampled_from(
            ["lines", "questions_asked", "order_attempted", "substitutions_explained", "x"]
        ),
        VALUES,
        max_size=4,
    ),
    card=st.dictionaries(
        st.sampled_from(["model", "tools", "store_snapshot", "seed", "time_s", "token_cost", "y"]),
        VALUES,
        max_size=7,
    ),
)
def test_score__hostile_grocery_submissions_are_stored_or_refused_never_crash(
    service: Service, cart: dict[str, Any], card: dict[str, Any]
) -> None:
    body = json.dumps({"task": "normal-week", "cart": cart, "agent_card": card}).encode()
    before = service.storage.count()
    try:
        row = service.score("grocery", body)
    except Invalid as refused:
        assert refused.field and service.storage.count() == before
    else:
        assert service.submission(row.id).record == row.record
