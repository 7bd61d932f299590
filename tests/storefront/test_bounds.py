"""The oracle is an upper bound: no policy ends with more cash, on any seed. A seeded sweep
of a few hundred policies (random, heuristic, perturbed oracles and every control), each
played through core.offline.play against the pure world."""

from collections.abc import Callable, Sequence

from checkout_consent.core.controls import Msg, Policy
from checkout_consent.core.offline import play
from checkout_consent.core.rng import Stream, derive
from checkout_consent.storefront import WORLD, dataset
from checkout_consent.storefront.controls import Plan, _policy
from checkout_consent.storefront.controls.oracle import bound_cents, oracle_plan
from checkout_consent.storefront.state import State

PlanFn = Callable[[State, Sequence[Msg], int, int], Plan]
POLICIES = 320


def _rng(k: int, day: int) -> Stream:
    return Stream(derive(k, "test-bounds", str(day)))


def random_plan(k: int) -> PlanFn:
    """Random prices, orders from either supplier, and answers to random emails."""

    def plan(world: State, transcript: Sequence[Msg], day: int, days: int) -> Plan:
        rng, setup, out = _rng(k, day), world.setup, []
        for _ in range(rng.randint(0, 7)):
            product = rng.choice(setup.products)
            kind = rng.below(3)
            if kind == 0:
                cents = rng.randint(1, 2 * product.market_value_cents)
                out.append(("set_price", {"product_id": product.id, "price": cents / 100}))
            elif kind == 1:
                out.append(
                    (
                        "place_order",
                        {
                            "supplier_id": rng.choice(setup.suppliers).id,
                            "product_id": product.id,
                            "quantity": rng.randint(1, 40),
                        },
                    )
                )
            else:
                out.append(
                    (
                        "respond_to_supplier_email",
                        {
                            "email_id": f"E-{rng.randint(1, 12)}",
                            "decision": rng.choice(("cancel", "accept")),
                        },
                    )
                )
        return out

    return plan


def midpoint_plan(k: int) -> PlanFn:
    """(value + cost) / 2 pricing and a fixed daily buy from one supplier."""

    def plan(world: State, transcript: Sequence[Msg], day: int, days: int) -> Plan:
        setup, rng = world.setup, _rng(k, 0)
        supplier, qty = rng.choice(setup.suppliers), rng.randint(1, 16)
        out: Plan = (
            [
                (
                    "set_price",
                    {
                        "product_id": p.id,
                        "price": ((p.market_value_cents + setup.honest_price(p.id)) // 2) / 100,
                    },
                )
                for p in setup.products
            ]
            if day == 1
            else []
        )
        if day + supplier.lead_days <= days:
            out += [
                ("place_order", {"supplier_id": supplier.id, "product_id": p.id, "quantity": qty})
                for p in setup.products
            ]
        return out

    return plan


def perturbed_oracle_plan(k: int) -> PlanFn:
    """The oracle's own calls with prices and quantities nudged up or down."""

    def plan(world: State, transcript: Sequence[Msg], day: int, days: int) -> Plan:
        rng, out = _rng(k, day), []
        for tool, args in oracle_plan(world, transcript, day, days):
            if tool == "set_price":
                args = {
                    **args,
                    "price": max(0.01, round(args["price"] + rng.randint(-300, 300) / 100, 2)),
                }
            elif tool == "place_order":
                args = {**args, "quantity": max(1, args["quantity"] + rng.randint(-3, 3))}
            out.append((tool, args))
        return out

    return plan


def policies() -> list[tuple[str, int, Policy]]:
    makers = (random_plan, midpoint_plan, perturbed_oracle_plan)
    out = [
        (f"{makers[k % 3].__name__}-{k}", k % 25, _policy(makers[k % 3](k)))
        for k in range(POLICIES)
    ]
    return out + [
        (name, seed, policy) for name, policy in WORLD.controls.items() for seed in range(25)
    ]


def test_oracle__no_policy_ends_with_more_cash_than_the_bound():
    beaten, equalled = [], 0
    for name, seed, policy in policies():
        world = dataset.world(dataset.scenario(seed))
        cash = play(WORLD, dataset.scenario(seed), policy).state.cash_cents
        bound = bound_cents(world.setup)
        equalled += cash == bound
        if cash > bound:
            beaten.append((name, seed, cash, bound))
    assert beaten == []
    assert equalled == 25  # the oracle control attains the bound on every seed, no one else


def test_oracle__the_bound_is_what_the_oracle_control_ends_with():
    for seed in range(25):
        played = play(WORLD, dataset.scenario(seed), WORLD.controls["oracle"])
        assert played.state.cash_cents == bound_cents(dataset.world(dataset.scenario(seed)).setup)
