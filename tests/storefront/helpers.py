"""Test helpers: play a control or a call list through the pure world and grade it."""

from checkout_consent.core.contract import Turns
from checkout_consent.core.offline import play
from checkout_consent.core.trace import Call, replay
from checkout_consent.core.world import apply
from checkout_consent.storefront import WORLD, dataset
from checkout_consent.storefront.record import StorefrontRecord


def trace_of(seed: int, calls: list[tuple[str, dict]], origin: str = "agent") -> list[Call]:
    state = dataset.world(dataset.scenario(seed))
    out = []
    for tool, args in calls:
        step = apply(WORLD.actions, state, tool, args)
        out.append(
            Call(tool=tool, args=args, ok=step.ok, observation=step.observation, origin=origin)
        )
        state = step.state
    return out


def grade(seed: int, trace: list[Call], turns: Turns = ()) -> StorefrontRecord:
    sc = dataset.scenario(seed)
    return WORLD.grade(sc, replay(WORLD.actions, WORLD.initial(sc), trace), turns)


def control_record(name: str, seed: int) -> StorefrontRecord:
    played = play(WORLD, dataset.scenario(seed), WORLD.controls[name])
    return grade(seed, played.calls, tuple(played.turns))
