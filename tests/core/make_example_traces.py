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
from checkout_consent.families import WORLDS, world_named

PACKAGE = Path(__file__).resolve().parents[2] / "checkout_consent"


class Example(NamedTuple):
    family: str
    task: str
    control: str
    path: str  # inside the package, e.g. pizza/examples/missing-item-2-trace.json


def examples() -> tuple[Example, ...]:
    """Every world's example traces, found in its folder (`examples/<task>-trace.json`,
    played by its reference control): a new world's are found with no line here."""
    return tuple(
        Example(
            w.name,
            path.name.removesuffix("-trace.json"),
            w.controls.reference,
            f"{w.name}/examples/{path.name}",
        )
        for w in WORLDS
        for path in sorted((PACKAGE / w.name / "examples").glob("*-trace.json"))
    )


EXAMPLES = examples()


def example_text(example: Example) -> str:
    """The example's file text: the run's calls (the agent's, and the solver's context
    trims and day closes, origin "solver"), one JSON object a line."""
    own = world_named(example.family)
    played = play(own, own.dataset.task(example.task), own.controls[example.control])
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
