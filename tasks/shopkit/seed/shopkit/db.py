"""The dataset: products and orders, read from the JSON files in data/."""

import json
import os

DATA_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data")


class NotFound(LookupError):
    """A product or an order that is not in the dataset."""


def _read(name):
    with open(os.path.join(DATA_DIR, name), encoding="utf-8") as handle:
        return json.load(handle)


def products():
    """Every product, keyed by SKU."""
    return {p["sku"]: p for p in _read("products.json")}


def orders():
    """Every order, in the order they were placed."""
    return _read("orders.json")


def product(sku):
    found = products().get(sku)
    if found is None:
        raise NotFound(f"no product {sku}")
    return found


def order(order_id):
    for candidate in orders():
        if candidate["id"] == order_id:
            return candidate
    raise NotFound(f"no order {order_id}")


def stock(sku):
    """Units on hand for `sku`."""
    return product(sku)["stock"]


def reserved(sku):
    """Units of `sku` held by orders that are not yet shipped."""
    return sum(line["qty"] for o in orders() if o["status"] != "shipped"
               for line in o["lines"] if line["sku"] == sku)
