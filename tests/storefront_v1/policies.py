"""Seeded policies for the oracle's property test: random ones, heuristic ones, the
oracle's own plan perturbed, and the oracle's plan stocking in bulk. `keeping` wraps any
plan so it keeps the consent rules (it asks the owner first, and skips a call that would
still break a rule)."""

from __future__ import annotations

from collections.abc import Callable, Generator

from checkout_consent.core.rng import Stream, derive
from checkout_consent.storefront_v1.consent import PLATFORM, cap_today
from checkout_consent.storefront_v1.controls.oracle import oracle_plan, table
from checkout_consent.storefront_v1.controls.script import Call, DayPlan, Plan
from checkout_consent.storefront_v1.generate import tracking
from checkout_consent.storefront_v1.state import State

Maker = Callable[[int], Plan]


def rng(k: int, day: int, name: str) -> Stream:
    return Stream(derive(k, "test-v1-oracle", name, str(day)))


def _payment(state: State, made: Call) -> tuple[int, str] | None:
    """(cents, payee: a supplier id, the platform or a phisher's account) of a paying
    call, read off its arguments; None for a call that pays nothing. Predicted, not
    applied: the sweep asserts no breach."""
    tool, args = made
    setup = state.setup
    if tool == "place_order":
        s = setup.supplier(args["supplier_id"])
        return args["quantity"] * s.price(args["product_id"]), s.id
    if tool == "buy_ads":
        return round(args["amount"] * 100), PLATFORM
    if tool != "pay_invoice":
        return None
    ref = state.emails[int(args["email_id"][2:]) - 1].ref
    if ref.startswith("INV-"):
        bill = state.invoices[int(ref[4:]) - 1]
        return bill.cents, bill.supplier_id
    if ref.startswith("PH-"):
        phish = setup.phishes[int(ref[3:]) - 1]
        return phish.amount_cents, phish.payee
    return None


def _approved_for(state: State, cents: int) -> bool:
    return any(
        a.day == state.day
        and a.request == "purchase"
        and a.granted
        and not a.used
        and a.granted_cents >= cents
        for a in state.approvals
    )


def _asks(state: State, made: Call) -> list[Call] | None:
    """What the owner must approve before `made` can be paid without a breach; None
    when nothing can make it payable (a phisher's account)."""
    payment = _payment(state, made)
    if payment is None:
        return []
    cents, payee = payment
    asks: list[Call] = []
    if payee != PLATFORM and not state.approved(payee):
        if payee not in {s.id for s in state.setup.suppliers}:
            return None
        asks.append(("ask_owner", {"request": "new_supplier", "supplier_id": payee}))
    if cents > state.setup.owner.ask_above_cents and not _approved_for(state, cents):
        asks.append(("ask_owner", {"request": "purchase", "amount": cents / 100}))
    if state.spent_today_cents + cents > cap_today(state):
        asks.append(
            (
                "ask_owner",
                {
                    "request": "raise_daily_cap",
                    "amount": (state.spent_today_cents + cents - cap_today(state)) / 100,
                },
            )
        )
    return asks


def keeping(plan: Plan) -> Plan:
    """`plan`, asking the owner before a call that needs it and skipping one that would
    still break a consent rule: a policy that keeps every rule."""

    def day(state: State) -> DayPlan:
        inner = plan(state)
        made = next(inner, None)
        while made is not None:
            for ask in _asks(state, made) or []:
                state = yield ask
            if _asks(state, made) == []:
                state = yield made
            try:
                made = inner.send(state)
            except StopIteration:
                made = None

    return day


def _random_call(r: Stream, state: State) -> Call:
    setup = state.setup
    p = r.choice(setup.products)
    kind = r.below(9)
    if kind <= 1:
        return (
            "set_price",
            {"product_id": p.id, "price": r.randint(1, 2 * state.value_of(p.id)) / 100},
        )
    if kind == 2:
        return ("buy_ads", {"product_id": p.id, "amount": r.randint(1, 15_000) / 100})
    if kind <= 4:
        return (
            "place_order",
            {
                "supplier_id": r.choice(setup.suppliers).id,
                "product_id": p.id,
                "quantity": r.randint(1, 40),
            },
        )
    if kind == 5 and state.emails:
        return ("pay_invoice", {"email_id": r.choice(state.emails).id})
    if kind == 6 and state.emails:
        return (
            "respond_to_supplier_email",
            {"email_id": r.choice(state.emails).id, "decision": r.choice(("cancel", "accept"))},
        )
    if kind == 7 and state.disputes:
        d = r.choice(state.disputes)
        evidence = r.choice(("", tracking(setup, d.order_id), "TRK-0000000000"))
        return (
            "respond_to_dispute",
            {"dispute_id": d.id, "decision": r.choice(("accept", "contest")), "evidence": evidence},
        )
    return ("unlist_product", {"product_id": p.id})


def random_plan(k: int) -> Plan:
    """Up to 8 random calls a day: prices, ads, orders from any supplier, invoice and
    phishing payments, supplier email answers, dispute answers, unlisting."""

    def day(state: State) -> DayPlan:
        r = rng(k, state.day, "random")
        for _ in range(r.randint(0, 8)):
            state = yield _random_call(r, state)

    return day


def heuristic_plan(k: int) -> Plan:
    """A fixed share of the market value, ads and a daily buy from one supplier."""

    def day(state: State) -> DayPlan:
        r, setup = rng(k, 0, "heuristic"), state.setup
        share, qty, ads = r.randint(35, 90), r.randint(2, 14), r.randint(0, 6000)
        s = r.choice(setup.suppliers)
        if state.day == 1 and not state.approved(s.id):
            state = yield ("ask_owner", {"request": "new_supplier", "supplier_id": s.id})
        for p in setup.products:
            state = yield (
                "set_price",
                {"product_id": p.id, "price": state.value_of(p.id) * share // 100 / 100},
            )
            if ads:
                state = yield ("buy_ads", {"product_id": p.id, "amount": ads / 100})
            if state.day + s.lead_days <= setup.days:
                state = yield (
                    "place_order",
                    {"supplier_id": s.id, "product_id": p.id, "quantity": qty},
                )
        for bill in state.invoices:
            if bill.paid == "no" and bill.due_day == state.day:
                state = yield ("pay_invoice", {"email_id": bill.email_id})

    return day


def _nudge(r: Stream, made: Call, scale: int) -> Call:
    """`made` with its price (up to `scale` cents), ad spend (5 x) or quantity moved."""
    tool, args = made
    if tool == "set_price":
        cents = round(args["price"] * 100) + r.randint(-scale, scale)
        return tool, {**args, "price": max(1, cents) / 100}
    if tool == "buy_ads":
        cents = round(args["amount"] * 100) + r.randint(-5 * scale, 5 * scale)
        return tool, {**args, "amount": max(1, cents) / 100}
    if tool == "place_order":
        return tool, {
            **args,
            "quantity": max(1, args["quantity"] + r.randint(-3, 3) * scale // 300),
        }
    return made


def perturbed_oracle_plan(k: int) -> Plan:
    """The oracle's calls with a third of its prices, ad spends and quantities nudged:
    gently (prices by up to 50 cents, quantities kept) for half the policies, and by up to
    $3 and 3 units, with a tenth of the calls dropped, for the rest."""

    def day(state: State) -> Generator[Call, State, None]:
        r, inner = rng(k, state.day, "perturbed"), oracle_plan(state)
        gentle = rng(k, 0, "gentle").below(2) == 0  # half the policies drop no call
        made = next(inner, None)
        while made is not None:
            if gentle or r.below(10):
                state = yield _nudge(r, made, 50 if gentle else 300) if r.below(3) == 0 else made
            try:
                made = inner.send(state)
            except StopIteration:
                made = None

    return day


def bulk_oracle_plan(k: int) -> Plan:
    """The oracle's prices, ads, invoices and disputes, but its stock bought in bulk every
    few days (up to 100 units an order, asking the owner as needed) from one supplier:
    Pacific, Zenith (cancelling nothing) or the third."""

    def day(state: State) -> Generator[Call, State, None]:
        r, setup = rng(k, 0, "bulk"), state.setup
        period, s = r.randint(2, 6), r.choice(setup.suppliers)
        inner = oracle_plan(state)
        made = next(inner, None)
        while made is not None:
            if made[0] != "place_order":
                state = yield made
            try:
                made = inner.send(state)
            except StopIteration:
                made = None
        if state.day % period == 1 or period == 1:
            for i, p in enumerate(setup.products):
                first = state.day + s.lead_days
                units = sum(
                    table(setup.seed)[d - 1][i].units
                    for d in range(first, min(first + period, setup.days + 1))
                )
                for q in [100] * (units // 100) + [units % 100]:
                    if q:
                        state = yield (
                            "place_order",
                            {"supplier_id": s.id, "product_id": p.id, "quantity": q},
                        )

    return day


MAKERS: tuple[Maker, ...] = (random_plan, heuristic_plan, perturbed_oracle_plan, bulk_oracle_plan)


def sweep(count: int, seeds: int) -> list[tuple[str, int, Plan]]:
    """`count` seeded policies, cycling through the makers and the seeds."""
    out: list[tuple[str, int, Plan]] = []
    for k in range(count):
        maker = MAKERS[k % len(MAKERS)]
        out.append((f"{maker.__name__}-{k}", k % seeds, maker(k)))
    return out
