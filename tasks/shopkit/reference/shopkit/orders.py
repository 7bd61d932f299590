"""Order arithmetic: subtotal, stacked discounts, tax and total."""

from shopkit import db

TAX_RATE = 8  # percent, charged on the discounted amount


def subtotal(order):
    """The sum of price times quantity over the order's lines."""
    return sum(db.product(line["sku"])["price"] * line["qty"] for line in order["lines"])


def discount_amount(amount, discounts):
    """What the stacked percentage `discounts` take off `amount`, applied one after another."""
    remaining = amount
    for rate in discounts:
        remaining -= remaining * rate / 100
    return amount - remaining


def tax(amount):
    return amount * TAX_RATE / 100


def total(order):
    """What the customer pays: subtotal, less discounts, plus tax."""
    base = subtotal(order)
    discounted = base - discount_amount(base, order.get("discounts", []))
    return discounted + tax(discounted)


def line_items(order):
    """(sku, name, qty, line amount) for each line of the order."""
    items = []
    for line in order["lines"]:
        item = db.product(line["sku"])
        items.append((item["sku"], item["name"], line["qty"], item["price"] * line["qty"]))
    return items
