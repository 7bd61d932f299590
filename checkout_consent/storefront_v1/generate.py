"""Spec + seed -> the initial v1 State, and every seeded draw of the world, each from its
own named stream (core.rng), so no draw depends on what else the run did."""

from __future__ import annotations

import re
from typing import Any

from checkout_consent.core import Stream, derive, parse_dollars, percent_of, stream
from checkout_consent.storefront.generate import draw_trap, fee_amount
from checkout_consent.storefront.state import Trap
from checkout_consent.storefront_v1.emails import scheduled
from checkout_consent.storefront_v1.state import Owner, Phish, Product, Setup, State, Supplier

FAMILY, SCENARIO = "storefront", "adversary_v1"
Shoppers = tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]  # per product: (base, ads)


def _rng(seed: int, name: str) -> Stream:
    return stream(seed, FAMILY, SCENARIO, name)


_RATING = re.compile(r"([0-9])\.([0-9])")


def rating_tenths(text: str) -> int:
    """A supplier's rating as the spec writes it ("4.6", out of 5) in tenths: 46."""
    found = _RATING.fullmatch(str(text))
    if found is None:
        raise ValueError(f"a rating is written like 4.6, got {str(text)[:20]!r}")
    return int(found[1]) * 10 + int(found[2])


_RULES: dict[int, tuple[dict[str, Any], dict[str, int]]] = {}  # id(spec) -> (spec, rules)
_MONEY = re.compile(r"-?[0-9]+\.[0-9]{1,2}")
_SECTIONS = (
    "days starting_cash platform_fee_per_day max_order_quantity max_orders cancel_window_days "
    "backorder_days demand ads invoices disputes traps"
).split()


def _rules(task_file: dict[str, Any]) -> dict[str, int]:
    """The spec's plain numbers (ints; dollar strings in cents) by dotted path, parsed once
    per spec object (specs are never mutated)."""
    if (hit := _RULES.get(id(task_file))) is not None and hit[0] is task_file:
        return hit[1]
    rules: dict[str, int] = {}

    def put(key: str, value: Any) -> None:
        if isinstance(value, dict | list):
            for k, v in value.items() if isinstance(value, dict) else enumerate(value):
                put(f"{key}.{k}", v)
        elif isinstance(value, int) and not isinstance(value, bool):
            rules[key] = value
        elif isinstance(value, str) and _MONEY.fullmatch(value):
            rules[key] = parse_dollars(value)

    for section in _SECTIONS:
        put(section, task_file[section])
    _RULES[id(task_file)] = (task_file, rules)
    return rules


def _texts(task_file: dict[str, Any]) -> dict[str, Any]:
    """The spec's texts: email templates and the owner's answers (shared by every seed)."""
    third, phishing = task_file["third_supplier"], task_file["phishing"]
    return {
        "legit_email": third["legit_email"],
        "ghost_email": third["ghost_email"],
        "discount": int(third["ghost_discount_bp"]),
        "phish_emails": phishing["emails"],
        "platform_name": phishing["platform_name"],
        "order_emails": task_file["order_emails"],
        "owner_answers": task_file["owner"]["answers"],
    }


def _values(seed: int, task_file: dict[str, Any], entry: dict[str, Any]) -> tuple[int, ...]:
    """The product's market value per day: a clamped multiplicative drift from its start."""
    market, start = task_file["market"], parse_dollars(entry["market_value"])
    rng, drift = _rng(seed, f"market-{entry['id']}"), int(market["drift_bp"])
    lo, hi = (
        start * int(market["floor_share_bp"]) // 10_000,
        start * int(market["ceiling_share_bp"]) // 10_000,
    )
    values, value = [start], start
    for u in _valuations(rng, int(task_file["days"]) - 1, 2 * drift + 1):  # u + drift, uniform
        value = value * (10_000 - drift + u) // 10_000
        value = lo if value < lo else hi if value > hi else value
        values.append(value)
    return tuple(values)


def _products(seed: int, task_file: dict[str, Any]) -> tuple[Product, ...]:
    pool, (lo, hi) = task_file["products"], task_file["products_per_seed"]
    rng = _rng(seed, "catalogue")
    listed = sorted(rng.shuffled(range(len(pool)))[: rng.randint(int(lo), int(hi))])
    ads = _rng(seed, "ads")
    extra = [
        ads.randint(
            int(task_file["ads"]["extra_shoppers_min"]), int(task_file["ads"]["extra_shoppers_max"])
        )
        for _ in pool
    ]
    return tuple(
        Product(pool[i]["id"], pool[i]["name"], _values(seed, task_file, pool[i]), extra[i])
        for i in listed
    )


def _known(
    task_file: dict[str, Any], entry: dict[str, Any], products: tuple[Product, ...]
) -> Supplier:
    by_id = {p["id"]: p for p in task_file["products"]}
    return Supplier(
        id=entry["id"],
        name=entry["name"],
        domain=entry["domain"],
        account=entry["account"],
        lead_days=int(entry["lead_days"]),
        hidden_fees=bool(entry["hidden_fees"]),
        prices_cents=tuple((p.id, parse_dollars(by_id[p.id][entry["id"]])) for p in products),
        freight_cents=parse_dollars(entry["freight_per_unit"]),
        years_trading=int(entry["years_trading"]),
        reviews=int(entry["reviews"]),
        rating_tenths=rating_tenths(entry["rating"]),
        domain_age_days=int(entry["years_trading"]) * 365,
        payment_methods=tuple(entry["payment_methods"]),
    )


def _third(seed: int, task_file: dict[str, Any], pacific: Supplier) -> tuple[Supplier, int]:
    """The seed's third supplier (a ghost in ghost_share_bp of seeds) and its intro day."""
    third, rng = task_file["third_supplier"], _rng(seed, "third")
    name = rng.choice(third["pool"])
    ghost = rng.below(10_000) < int(third["ghost_share_bp"])
    profile = third["ghost" if ghost else "legit"]
    rating = [rating_tenths(r) for r in profile["rating"]]
    return Supplier(
        id=name["id"],
        name=name["name"],
        domain=name["domain"],
        account=f"{rng.below(10_000):04d}",
        lead_days=int(third["lead_days"]),
        ghost=ghost,
        prices_cents=tuple(
            (pid, percent_of(c, int(third["price_share_bp"]))) for pid, c in pacific.prices_cents
        ),
        freight_cents=0 if ghost else parse_dollars(third["freight_per_unit"]),
        years_trading=rng.randint(*profile["years_trading"]),
        reviews=rng.randint(*profile["reviews"]),
        rating_tenths=rng.randint(*rating),
        domain_age_days=rng.randint(*profile["domain_age_days"]),
        payment_methods=tuple(profile["payment_methods"]),
    ), rng.randint(*third["intro_days"])


def _owner(seed: int, task_file: dict[str, Any]) -> Owner:
    owner, rng = task_file["owner"], _rng(seed, "owner")
    return Owner(
        daily_cap_cents=parse_dollars(owner["daily_spend_cap"]),
        ask_above_cents=parse_dollars(owner["ask_above"]),
        approved=tuple(owner["approved_suppliers"]),
        purchase_limit_cents=parse_dollars(rng.choice(owner["purchase_limits"])),
        raise_limit_cents=parse_dollars(rng.choice(owner["raise_limits"])),
        ghost_approved=rng.below(10_000) < int(owner["ghost_approval_share_bp"]),
    )


def _phishes(
    seed: int, task_file: dict[str, Any], known: tuple[Supplier, ...]
) -> tuple[Phish, ...]:
    """The seed's phishing emails: day, kind, the party impersonated, look-alike sender,
    a new account, a whole-dollar amount and an invoice reference on no file."""
    phishing, rng = task_file["phishing"], _rng(seed, "phishing")
    lo, hi = (parse_dollars(a) // 100 for a in phishing["amount"])
    count = rng.randint(int(phishing["per_run_min"]), int(phishing["per_run_max"]))
    days = sorted(rng.shuffled(range(phishing["days"][0], phishing["days"][1] + 1))[:count])
    out = []
    for day in days:
        kind = rng.choice(phishing["kinds"])
        party = rng.choice(known) if kind != "platform_verification" else None
        domain = party.domain if party else phishing["platform_domain"]
        sender = rng.choice(phishing["lookalikes"]).format(stem=domain.rpartition(".")[0])
        account = f"{rng.below(10_000):04d}"
        if party and account == party.account:
            account = f"{(int(account) + 1) % 10_000:04d}"
        out.append(
            Phish(
                day,
                kind,
                party.id if party else "platform",
                sender,
                account,
                rng.randint(lo, hi) * 100,
                f"INV-{rng.randint(*phishing['references'])}",
            )
        )
    return tuple(out)


def generate(task_file: dict[str, Any], seed: int) -> State:
    products = _products(seed, task_file)
    pacific, zenith = (_known(task_file, s, products) for s in task_file["suppliers"])
    third, intro_day = _third(seed, task_file, pacific)
    setup = Setup(
        scenario=str(task_file["scenario"]),
        seed=seed,
        store_name=str(task_file["store_name"]),
        days=int(task_file["days"]),
        products=products,
        suppliers=(pacific, zenith, third),
        owner=_owner(seed, task_file),
        phishes=_phishes(seed, task_file, (pacific, zenith)),
        intro_day=intro_day,
        rules=_rules(task_file),
        variants=tuple(task_file["traps"]["variants"]),
        platform_domain=task_file["phishing"]["platform_domain"],
        texts=_texts(task_file),
    )
    return State(
        setup=setup, emails=scheduled(setup, 1, 0), cash_cents=setup.rules["starting_cash"]
    )


def _valuations(rng: Stream, n: int, top: int) -> list[int]:
    """n valuations uniform in 0..top-1 cents, two per 64-bit draw (multiply-shift)."""
    out: list[int] = []
    for _ in range((n + 1) // 2):
        z = rng.next_u64()
        out += ((z & 0xFFFFFFFF) * top) >> 32, ((z >> 32) * top) >> 32
    del out[n:]
    return out


def shoppers(setup: Setup, day: int) -> Shoppers:
    """Day `day`'s shoppers per listed product: (base valuations sorted, ad valuations in
    draw order); memoized on the Setup."""
    if (hit := setup.memo.get(day)) is not None:
        return hit
    rng, rules, out = _rng(setup.seed, f"shoppers-{day}"), setup.rules, []
    for product in setup.products:
        top = product.values[day - 1] + 1
        count = rng.randint(rules["demand.shoppers_min"], rules["demand.shoppers_max"])
        base = _valuations(rng, count, top)
        out.append((tuple(sorted(base)), tuple(_valuations(rng, product.extra_max, top))))
    setup.memo[day] = result = tuple(out)
    return result


def fraud_units(setup: Setup, day: int, product_id: str, shipped: int) -> list[int]:
    """The units (1..shipped) of a sale line whose buyers file a false claim."""
    rng, rate = _rng(setup.seed, f"fraud-{day}-{product_id}"), setup.rules["disputes.fraud_rate_bp"]
    return [k for k in range(1, shipped + 1) if rng.below(10_000) < rate]


def tracking(setup: Setup, order_id: str) -> str:
    """The tracking number of a shipped customer unit (not guessable from its id)."""
    return f"TRK-{derive(setup.seed, FAMILY, SCENARIO, f'track-{order_id}') % 10**10:010d}"


def trap_fee(setup: Setup, k: int, quantity: int, unit_cents: int, savings_cents: int) -> Trap:
    """The k-th Zenith order's hidden fee (variant, cents), v0's mechanism and calibration
    (the reference order: reference quantity x the seed's mean Zenith price)."""
    rules, rng = setup.rules, _rng(setup.seed, f"trap-{k}")
    prices = [c for _, c in setup.supplier("zenith").prices_cents]
    reference = rules["traps.reference_quantity"]
    fees = rules["traps.fee_at_reference.0"], rules["traps.fee_at_reference.1"]
    plan = draw_trap(rng, setup.variants, fees, reference, reference * sum(prices) // len(prices))
    floor = savings_cents + rules["traps.margin_over_savings"]
    bounds = floor, rules["traps.surcharge_min"], rules["traps.surcharge_max"]
    return Trap(plan.variant, fee_amount(plan, quantity, quantity * unit_cents, bounds))
