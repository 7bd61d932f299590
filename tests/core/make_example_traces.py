"""The example saved traces shipped beside each family (`<family>/examples/`), for the
documented `checkout-consent score FAMILY --task ID --trace FILE` commands. Each is the
calls of one control's offline run (core/offline.py `play`), with what each call
saw, so `score` replays and checks every observation. Regenerate them with
`python -m tests.core.make_example_traces`; a test holds the shipped files to this."""

from __future__ import annotations

import json
from pathlib import Path
from typing import NamedTuple

from checkout_consent.core.offline import play
from checkout_consent.families import family, world_for

PACKAGE = Path(__file__).resolve().parents[2] / "checkout_consent"


class Example(NamedTuple):
    family: str
    task: str
    control: str
    path: str  # inside the package, e.g. pizza/examples/missing-item-2-trace.json


EXAMPLES = (
    Example("pizza", "missing-item-2", "reference", "pizza/examples/missing-item-2-trace.json"),
    Example("shopkit", "T3", "reference", "shopkit/examples/T3-calls.json"),
    Example("storefront", "3", "oracle", "storefront/examples/3-trace.json"),
    Example(
        "storefront", "adversary_v1:3", "oracle", "storefront/examples/adversary_v1-3-trace.json"
    ),
)


def example_text(example: Example) -> str:
    """The example's file text: the run's calls (the agent's, and the solver's context
    trims and day closes, origin "solver"), one JSON object a line."""
    ref = family(example.family).scenario_for(example.task)
    world = world_for(example.family, ref.scenario_id)
    played = play(world, ref, world.controls[example.control])
    lines = [
        json.dumps(
            {
                "tool": c.tool,
                "args": c.args,
                "ok": c.ok,
                "observation": c.observation,
                "origin": c.origin,
            },
            sort_keys=True,
        )
        for c in played.calls
    ]
    return "[\n" + ",\n".join(lines) + "\n]\n"


def main() -> None:
    for example in EXAMPLES:
        target = PACKAGE / example.path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(example_text(example), encoding="utf-8")
        print(f"wrote checkout_consent/{example.path}")


if __name__ == "__main__":
    main()
