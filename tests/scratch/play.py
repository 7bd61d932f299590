"""Run in a fresh process by tests/core/test_scratch_family.py: add the scratch family to
the roster (nothing else), then use it through Inspect, the CLI, the board and the API,
and print what each surface said as one JSON object."""

from __future__ import annotations

import contextlib
import io
import json
import sys
import tempfile
from pathlib import Path

from tests.scratch import roster

roster.add()

from inspect_ai import eval as inspect_eval  # noqa: E402

from checkout_consent.cli.main import main  # noqa: E402
from checkout_consent.core.offline import play  # noqa: E402
from checkout_consent.families import world  # noqa: E402
from checkout_consent.leaderboard.board import views as board_views  # noqa: E402
from checkout_consent.serve.api.service import Service  # noqa: E402
from checkout_consent.serve.api.storage import Storage  # noqa: E402
from tests.scratch.family import NAME, WORLD  # noqa: E402


def cli(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(list(argv))
    return code, out.getvalue()


def run() -> dict[str, object]:
    tmp = Path(tempfile.mkdtemp())
    log = inspect_eval(
        WORLD.task_factory()(),
        model=f"control/{NAME}-exact",
        log_dir=str(tmp / "logs"),
        display="none",
    )[0]
    metrics = {k: m.value for s in log.results.scores for k, m in s.metrics.items()}
    listed = cli("list", NAME)
    ran = cli(
        "--log-dir", str(tmp / "cli"), "run", NAME, "--model", f"control/{NAME}-over", "--json"
    )
    service = Service(Storage(str(tmp / "api.db")))
    for control in ("exact", "over"):
        token = None  # the first submission claims the agent's name; later ones send its token
        for task in ("small", "large"):
            calls = [
                {"tool": c.tool, "args": c.args}
                for c in play(world(NAME), WORLD.dataset.task(task), WORLD.controls[control]).calls
            ]
            body = {"task": task, "calls": calls, "agent": {"name": control}}
            _, issued = service.submit(NAME, json.dumps(body).encode(), token)
            token = token or issued
    return {
        "status": log.status,
        "metrics": metrics,
        "list": listed,
        "run": [ran[0], json.loads(ran[1])],
        "api": service.leaderboard(NAME),
        "board": len(board_views(NAME, [])),
    }


if __name__ == "__main__":
    json.dump(run(), sys.stdout)
