"""The storefront family: run a dropshipping store; catch the supplier's hidden fees."""

from checkout_consent.core.family import Family
from checkout_consent.storefront import grader
from checkout_consent.storefront.actions import ACTIONS
from checkout_consent.storefront.generate import generate as generate_state

FAMILY = Family(
    name="storefront",
    version=grader.WORLD_VERSION,
    actions=ACTIONS,
    initial=generate_state,
    grade=grader.grade,
    metrics=grader.metrics,
    explain=grader.explain,
)
