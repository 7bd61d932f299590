"""Test helpers: play a control or a call list through the pure world and grade it."""

from checkout_consent.core.family import RunInfo
from checkout_consent.core.trace import Call, replay
from checkout_consent.core.world import apply
from checkout_consent.families import CONTROLS
from checkout_consent.storefront import FAMILY
from checkout_consent.storefront.actions import ACTIONS
from checkout_consent.storefront.generate import generate
from checkout_consent.storefront.play import play
from checkout_consent.storefront.record import StorefrontRecord
from checkout_consent.storefront.spec import load_spec, scenario

RUN = RunInfo(model_id="control/test", inspect_version="x", suite_version="y", git_sha=None)


def trace_of(seed: int, calls: list[tuple[str, dict]], origin: str = "agent") -> list[Call]:
    state = generate(scenario(seed, load_spec()))
    out = []
    for tool, args in calls:
        step = apply(ACTIONS, state, tool, args)
        out.append(Call(tool=tool, args=args, ok=step.ok, observation=step.observation,
                        origin=origin))
        state = step.state
    return out


def grade(seed: int, trace: list[Call], run: RunInfo = RUN) -> StorefrontRecord:
    sc = scenario(seed, load_spec())
    return FAMILY.grade(sc, replay(ACTIONS, generate(sc), trace), run)


def control_record(name: str, seed: int) -> StorefrontRecord:
    sc = scenario(seed, load_spec())
    _, trace = play(CONTROLS.get(f"storefront-{name}"), sc, 12)
    return grade(seed, trace)
