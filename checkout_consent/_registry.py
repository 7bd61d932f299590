"""Inspect entry point: registers every family's task and scorer, and the `control` provider."""

from inspect_ai.model import modelapi

from checkout_consent.grocery.task import grocery, grocery_scorer  # noqa: F401
from checkout_consent.pizza.task import pizza, pizza_scorer  # noqa: F401
from checkout_consent.shopkit.task import shopkit, shopkit_scorer  # noqa: F401
from checkout_consent.storefront.task import storefront, storefront_scorer  # noqa: F401
from checkout_consent.storefront.v1.task import storefront_v1, storefront_v1_scorer  # noqa: F401


@modelapi(name="control")
def control() -> type:
    from checkout_consent.families import control_registry
    from checkout_consent.runtime.provider import control_api

    return control_api(control_registry())
