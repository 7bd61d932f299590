"""The example request bodies shipped beside each trace family's saved traces
(`<family>/examples/<task>-body.json`): what `POST /v1/{family}/score` and MCP
`score_answer` take, for the same task and control as the family's example trace
(tests/core/make_example_traces.py): the agent's calls of the control's offline run, as a
client posts them (tests/serve/conftest.py `trace`), anonymous, so they can be posted any
number of times. Grocery's body is its committed cart, not generated here. Regenerate with
`python -m tests.serve.make_example_bodies`; tests/serve/test_examples.py holds the shipped
files to this and posts every one."""

from __future__ import annotations

import json
from pathlib import PurePosixPath

from tests.core.make_example_traces import EXAMPLES, PACKAGE, Example
from tests.serve.conftest import trace


def body_path(example: Example) -> str:
    """Inside the package, beside the example trace: e.g. storefront/examples/3-body.json."""
    name = example.task.replace(":", "-")
    return str(PurePosixPath(example.path).parent / f"{name}-body.json")


def body_text(example: Example) -> str:
    """The body's file text: the task, then one call a line."""
    body = trace(example.family, example.task, example.control, agent=None)
    calls = ",\n".join(json.dumps(c, sort_keys=True) for c in body["calls"])
    return f'{{"task": {json.dumps(body["task"])}, "calls": [\n{calls}\n]}}\n'


def main() -> None:
    for example in EXAMPLES:
        target = PACKAGE / body_path(example)
        target.write_text(body_text(example), encoding="utf-8")
        print(f"wrote checkout_consent/{body_path(example)}")


if __name__ == "__main__":
    main()
