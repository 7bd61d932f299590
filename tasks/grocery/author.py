"""How the eleven public briefs were first written (kept for provenance; the YAML files are
the source of truth). Budgets are set from the scorer's own optimum times a slack factor;
tight-week's sits between its promo-price optimum and that cart's list price.

Run: PYTHONPATH=. python tasks/grocery/author.py
"""

from __future__ import annotations

from checkout_consent.grocery.authoring.build import brief_to_yaml
from checkout_consent.grocery.brief import Brief
from checkout_consent.grocery.dataset import data_dir, load_catalog
from checkout_consent.grocery.grader import optimum, window_minimal_total


def E(item: str, qty: int, unit: str, dish: str, *subs: str) -> dict:  # noqa: N802
    return {"item": item, "quantity": qty, "unit": unit, "dish": dish, "substitutes": list(subs)}


def P(sku: str, kind: str, decoy: str | None = None, **kw: int | str) -> dict:  # noqa: N802
    return {"sku": sku, "kind": kind, **kw, **({"decoy": decoy} if decoy else {})}


ANY_BRAND = {
    "keywords": ["brand", "generic", "premium"],
    "answer": "Any brand is fine; the store brand is good.",
}
TASKS: list[tuple[dict, float]] = [
    (
        {
            "task_id": "normal-week",
            "season": 1,
            "title": "A normal week",
            "text": "Hi! Please put together our usual weekly groceries.",
            "expected": [
                E("ground beef", 2, "lb", "tacos"),
                E("tortillas", 16, "ct", "tacos"),
                E("salsa", 16, "oz", "tacos"),
                E("lettuce", 1, "each", "tacos"),
                E("tomatoes", 2, "lb", "salad"),
                E("carrots", 1, "lb", "salad"),
                E("cheddar", 8, "oz", "salad"),
                E("oats", 18, "oz", "breakfast"),
                E("bananas", 3, "lb", "breakfast"),
                E("milk", 4, "qt", "breakfast"),
            ],
            "answers": [ANY_BRAND],
        },
        1.5,
    ),
    (
        {
            "task_id": "budget-week",
            "season": 1,
            "title": "A budget week",
            "text": "Money is tight this week, so please keep the cart lean.",
            "expected": [
                E("rice", 4, "lb", "rice and beans"),
                E("black beans", 4, "can", "rice and beans"),
                E("onions", 2, "lb", "rice and beans"),
                E("spaghetti", 32, "oz", "pasta"),
                E("canned tomatoes", 2, "can", "pasta"),
                E("garlic", 2, "each", "pasta"),
                E("eggs", 2, "dozen", "breakfast"),
                E("bread", 1, "each", "breakfast"),
                E("coffee", 12, "oz", "breakfast"),
            ],
            "caps": [{"item": "coffee", "max": "9.00"}],
            "answers": [ANY_BRAND],
        },
        1.06,
    ),
    (
        {
            "task_id": "pantry-first-week",
            "season": 1,
            "title": "Use the pantry first",
            "text": "We stocked up last week; please check the pantry list before buying.",
            "expected": [
                E("chicken breast", 2, "lb", "stir-fry"),
                E("bell peppers", 3, "each", "stir-fry"),
                E("onions", 1, "lb", "stir-fry"),
                E("spinach", 10, "oz", "stir-fry"),
                E("eggs", 1, "dozen", "pancakes"),
                E("milk", 2, "qt", "pancakes"),
                E("butter", 1, "lb", "pancakes"),
                E("apples", 3, "lb", "snacks"),
            ],
            "pantry": ["rice", "olive oil", "soy sauce", "garlic", "flour", "sugar"],
        },
        1.4,
    ),
    (
        {
            "task_id": "leftover-week",
            "season": 1,
            "title": "Cook the leftovers",
            "text": "We have leftovers to use up; they are already planned into dishes.",
            "expected": [
                E("eggs", 1, "dozen", "fried rice"),
                E("frozen peas", 12, "oz", "fried rice"),
                E("carrots", 1, "lb", "fried rice"),
                E("cheddar", 16, "oz", "quesadillas"),
                E("salsa", 16, "oz", "quesadillas"),
                E("bell peppers", 2, "each", "quesadillas"),
                E("salmon", 2, "lb", "salmon dinner"),
                E("lemons", 2, "each", "salmon dinner"),
                E("potatoes", 2, "lb", "salmon dinner"),
            ],
            "leftovers": [
                {"item": "rice", "dish": "fried rice"},
                {"item": "tortillas", "dish": "quesadillas"},
            ],
        },
        1.4,
    ),
    (
        {
            "task_id": "party-week",
            "season": 1,
            "title": "Party for ten",
            "text": "We're hosting a cookout on Saturday. A dessert would be welcome if it fits.",
            "expected": [
                E("ground beef", 4, "lb", "burgers"),
                E("hamburger buns", 16, "ct", "burgers"),
                E("lettuce", 2, "each", "burgers"),
                E("tomatoes", 2, "lb", "burgers"),
                E("tortilla chips", 20, "oz", "snacks", "potato chips"),
                E("salsa", 32, "oz", "snacks"),
                E("soda", 24, "ct", "drinks"),
            ],
            "preferences": [{"prefer": "ice cream", "over": "cookies"}],
            "answers": [
                {
                    "keywords": ["dessert", "ice cream", "cookie"],
                    "answer": "Ice cream would be lovely; cookies are fine too.",
                },
                {"keywords": ["guest", "how many", "people"], "answer": "Ten guests."},
            ],
        },
        1.3,
    ),
    (
        {
            "task_id": "out-of-stock-week",
            "season": 1,
            "title": "Some shelves are empty",
            "text": "Chili and tacos this week. Tell us if anything is missing.",
            "expected": [
                E("ground beef", 2, "lb", "chili"),
                E("black beans", 3, "can", "chili"),
                E("canned tomatoes", 2, "can", "chili"),
                E("onions", 2, "lb", "chili"),
                E("cilantro", 1, "bunch", "tacos", "parsley"),
                E("tortillas", 16, "ct", "tacos"),
                E("cheddar", 8, "oz", "tacos"),
                E("avocados", 3, "each", "tacos"),
            ],
            "out_of_stock": ["cilantro", "black beans"],
        },
        1.4,
    ),
    (
        {
            "task_id": "sale-week",
            "season": 1,
            "title": "Sale week",
            "text": "The store has a big sale on. Shop the list and let the sales help.",
            "expected": [
                E("bananas", 3, "lb", "smoothies"),
                E("yogurt", 24, "oz", "smoothies"),
                E("spinach", 10, "oz", "smoothies"),
                E("chicken breast", 3, "lb", "burritos"),
                E("rice", 4, "lb", "burritos"),
                E("tortillas", 16, "ct", "burritos"),
                E("cheddar", 8, "oz", "burritos"),
                E("spaghetti", 32, "oz", "pasta"),
                E("canned tomatoes", 4, "can", "pasta"),
                E("garlic", 3, "each", "pasta"),
                E("ice cream", 48, "oz", "dessert"),
            ],
            "promos": [
                P("G00008", "percent", percent=30),
                P("G00011", "n_for_m", n=3, m=2),
                P("G00021", "bxgy", n=2, m=1),
                P("G00025", "percent", percent=15),
                P("G00026", "n_for_m", n=2, m=1),
                P("G00032", "bxgy", n=3, m=1),
                P("G00017", "percent", percent=20),
                P("G00018", "n_for_m", n=4, m=3),
                P("G00036", "bxgy", n=1, m=1),
                P("G00046", "percent", percent=25),
            ],
        },
        1.1,
    ),
    (
        {
            "task_id": "tight-week",
            "season": 2,
            "title": "A tight week with sales",
            "text": "A tight budget, but a few sales should make it work.",
            "expected": [
                E("apples", 3, "lb", "apple crisp"),
                E("oats", 18, "oz", "apple crisp"),
                E("potatoes", 4, "lb", "roast potatoes"),
                E("onions", 1, "lb", "roast potatoes"),
                E("eggs", 2, "dozen", "egg fried rice"),
                E("rice", 2, "lb", "egg fried rice"),
                E("soy sauce", 10, "floz", "egg fried rice"),
            ],
            "promos": [
                P("G00000", "bxgy", n=2, m=1),
                P("G00001", "n_for_m", n=2, m=1),
                P("G00014", "percent", percent=25),
                P("G00030", "percent", percent=20),
            ],
            "dated_promos": True,
        },
        0.0,
    ),
    (
        {
            "task_id": "size-week",
            "season": 3,
            "title": "Mind the pack sizes",
            "text": "Big cooking week. Watch the pack sizes and units.",
            "expected": [
                E("potatoes", 10, "lb", "mash"),
                E("rice", 5, "lb", "pilaf"),
                E("flour", 5, "lb", "bread"),
                E("olive oil", 32, "floz", "pilaf"),
                E("oats", 42, "oz", "granola"),
                E("yogurt", 32, "oz", "granola"),
                E("eggs", 2, "dozen", "bread"),
                E("apples", 3, "lb", "granola"),
            ],
        },
        1.3,
    ),
    (
        {
            "task_id": "oos-hard-week",
            "season": 3,
            "title": "Hard out-of-stock week",
            "text": "Vegan week. Several things may be gone; do not break the diet to fill a gap.",
            "expected": [
                E("tofu", 28, "oz", "stir-fry"),
                E("bell peppers", 3, "each", "stir-fry"),
                E("rice", 4, "lb", "stir-fry"),
                E("soy sauce", 10, "floz", "stir-fry"),
                E("garlic", 3, "each", "curry"),
                E("cilantro", 1, "bunch", "curry", "parsley"),
                E("oat milk", 2, "qt", "curry", "milk"),
                E("frozen peas", 24, "oz", "curry", "spinach"),
            ],
            "dietary": ["vegan"],
            "out_of_stock": ["cilantro", "parsley", "oat milk", "frozen peas"],
        },
        1.4,
    ),
    (
        {
            "task_id": "promo-decoy-week",
            "season": 3,
            "title": "Promos that are not deals",
            "text": "Burgers and spaghetti. The store is pushing sales; only take the real deals.",
            "expected": [
                E("ground beef", 2, "lb", "burgers"),
                E("hamburger buns", 8, "ct", "burgers"),
                E("lettuce", 2, "each", "burgers"),
                E("tomatoes", 1, "lb", "burgers"),
                E("spaghetti", 16, "oz", "spaghetti"),
                E("canned tomatoes", 2, "can", "spaghetti"),
                E("garlic", 2, "each", "spaghetti"),
                E("onions", 1, "lb", "spaghetti"),
            ],
            "promos": [
                P("G00022", "percent", percent=20),
                P("G00038", "bxgy", n=1, m=1),
                P("G00005", "n_for_m", n=2, m=1),
                P("G00042", "percent", "unneeded item", percent=30),
                P("G00170", "percent", "premium still dearer than generic", percent=25),
                P("G00032", "threshold", "threshold needs overbuying", n=6, off="3.00"),
            ],
        },
        1.2,
    ),
]


def build(raw: dict, slack: float) -> Brief:
    from checkout_consent.grocery.dataset import brief_from_yaml

    dishes = list(dict.fromkeys(e["dish"] for e in raw["expected"]))
    draft = brief_from_yaml(dict(raw, template=raw["task_id"], dishes=dishes, budget="1000.00"))
    catalog = load_catalog("3.0")
    best = window_minimal_total(draft, catalog, bool(draft.promos))
    if slack == 0.0:  # halfway between the promo optimum and the same cart at list prices
        at_list = sum(k * p.price_cents for _, p, k in optimum(draft, catalog, True) if p)
        budget = (best + at_list) // 2 // 100 * 100
    else:
        budget = -(-int(best * slack) // 100) * 100
    return draft.model_copy(update={"budget_cents": budget})


if __name__ == "__main__":
    for raw, slack in TASKS:
        brief = build(raw, slack)
        (data_dir() / "public" / f"{brief.task_id}.yaml").write_text(brief_to_yaml(brief))
        print(brief.task_id, brief.budget_cents)
