"""Inspect entry point: every world's task and scorer (registered as the roster imports each
task module), the `control` provider and the `human` one (a person at a browser page)."""

from inspect_ai.model import modelapi

from checkout_consent.families import WORLDS
from checkout_consent.runtime.meta import task_factory

for _world in WORLDS:
    task_factory(_world)  # imports the world's task module: its @task and @scorer register


@modelapi(name="control")
def control() -> type:
    from checkout_consent.families import control_registry
    from checkout_consent.runtime.provider import control_api

    return control_api(control_registry())


@modelapi(name="human")
def human() -> type:
    from checkout_consent.runtime.human.provider import HumanModelAPI

    return HumanModelAPI
