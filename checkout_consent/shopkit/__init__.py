"""The shopkit family: fix planted money bugs in a small toolkit, graded by executing it."""

from checkout_consent.core.family import Family
from checkout_consent.shopkit import grader
from checkout_consent.shopkit.actions import ACTIONS
from checkout_consent.shopkit.generate import generate

FAMILY = Family(
    name="shopkit",
    version=grader.WORLD_VERSION,
    actions=ACTIONS,
    initial=generate,
    grade=grader.grade,
    metrics=grader.metrics,
    explain=grader.explain,
)
