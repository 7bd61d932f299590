"""Properties over random call sequences, malformed calls included."""

import math

from hypothesis import given
from hypothesis import strategies as st

from checkout_consent.core.trace import Call, replay
from checkout_consent.core.world import apply
from checkout_consent.storefront.actions import ACTIONS
from checkout_consent.storefront.dataset import load_task_file
from checkout_consent.storefront.generate import generate
from checkout_consent.storefront.state import State

TASK_FILE = load_task_file()  # the scenario (yaml)
junk = st.one_of(
    st.none(),
    st.booleans(),
    st.text(max_size=5),
    st.floats(allow_nan=True),
    st.integers(-(10**12), 10**12),
    st.lists(st.integers(), max_size=2),
)
supplier = st.one_of(st.sampled_from(["pacific", "zenith", "Zenith", "acme"]), junk)
product = st.one_of(st.sampled_from(["lamp", "diffuser", "sofa"]), junk)
quantity = st.one_of(st.integers(-5, 120), st.sampled_from([0, 1, 1e9, math.nan, "3"]), junk)
price = st.one_of(
    st.floats(-5, 200, allow_nan=False).map(lambda x: round(x, 2)),
    st.sampled_from([math.nan, math.inf, "12", 1.234, 0]),
    junk,
)
email = st.one_of(st.sampled_from(["E-1", "E-2", "E-3", "e-4", "E-99"]), junk)

calls = st.one_of(
    st.just(("view_state", {})),
    st.just(("end_day", {})),
    st.builds(
        lambda s, p, q: ("place_order", {"supplier_id": s, "product_id": p, "quantity": q}),
        supplier,
        product,
        quantity,
    ),
    st.builds(
        lambda e, d: ("respond_to_supplier_email", {"email_id": e, "decision": d}),
        email,
        st.one_of(st.sampled_from(["cancel", "accept", "maybe"]), junk),
    ),
    st.builds(lambda p, x: ("set_price", {"product_id": p, "price": x}), product, price),
    st.builds(lambda t: ("take_note", {"text": t}), st.one_of(st.text(max_size=30), junk)),
    st.builds(
        lambda d: ("place_order", d),
        st.dictionaries(st.sampled_from(["supplier_id", "quantity", "bogus"]), junk),
    ),
    st.builds(lambda t: (t, {}), st.sampled_from(["refund_everything", "", "set_price"])),
)
sequences = st.lists(calls, max_size=40)
seeds = st.integers(0, 10_000)


def play(seed: int, seq: list) -> tuple[State, list[Call], list[bool]]:
    state = generate(TASK_FILE, seed)
    trace, unchanged = [], []
    for tool, args in seq:
        step = apply(ACTIONS, state, tool, args)
        trace.append(
            Call(
                tool=tool,
                args=args if isinstance(args, dict) else {},
                ok=step.ok,
                observation=step.observation,
            )
        )
        unchanged.append(step.ok or step.state is state)
        state = step.state
    return state, trace, unchanged


@given(seeds, sequences)
def test_world__same_seed_same_calls_same_everything(seed, seq):
    a, trace_a, _ = play(seed, seq)
    b, trace_b, _ = play(seed, seq)
    assert a == b and trace_a == trace_b


@given(seeds, sequences)
def test_world__refused_calls_leave_the_state_unchanged(seed, seq):
    _, trace, unchanged = play(seed, seq)
    assert all(unchanged)
    assert all(c.observation.startswith("Error: ") for c in trace if not c.ok)


@given(seeds, sequences)
def test_world__every_cent_is_accounted_for(seed, seq):
    state, _, _ = play(seed, seq)
    setup = state.setup
    fees = setup.platform_fee_cents * len(state.day_end_cash)
    payments = sum(o.cost_cents for o in state.orders)
    refunds = sum(o.cost_cents for o in state.orders if o.status == "cancelled")
    revenue = sum(s.quantity * s.price_cents for s in state.sales)
    surcharges = sum(
        o.trap.surcharge_cents for o in state.orders if o.trap and o.status == "delivered"
    )
    expected = setup.starting_cash_cents - fees - payments + refunds + revenue - surcharges
    assert state.cash_cents == expected


@given(seeds, sequences)
def test_world__inventory_is_never_negative_and_adds_up(seed, seq):
    state, _, _ = play(seed, seq)
    for p in state.setup.products:
        delivered = sum(
            o.quantity for o in state.orders if o.product_id == p.id and o.status == "delivered"
        )
        sold = sum(s.quantity for s in state.sales if s.product_id == p.id)
        assert state.stock_of(p.id) == delivered - sold >= 0


@given(seeds, sequences)
def test_replay__equals_live_play(seed, seq):
    state, trace, _ = play(seed, seq)
    result = replay(ACTIONS, generate(TASK_FILE, seed), trace)
    assert result.mismatch is None and result.final == state
