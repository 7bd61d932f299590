"""The documented local-model recipe, run as written: docs/local-models.md's `local-model
serve ... -- checkout-consent run pizza` with a ladder model plays a pizza task to a scored
record whose tool calls executed (parsed by the server, run by the world).

It needs what the doc's sections 1 and 2 make (the built llama-server and the assembled
weights under /opt/llm) and minutes of CPU, so it is the `model` layer, never CI's:

    pytest -m model -n 0 tests/cli/test_local_recipe.py -s

Without the binary or the weights it fails saying which is missing (never skips)."""

import json
import re
import shlex
import socket
import subprocess
from pathlib import Path

import pytest

from checkout_consent.runtime.provenance import REPO_ROOT

pytestmark = pytest.mark.model
DOC = REPO_ROOT / "docs" / "local-models.md"


def documented_serve() -> list[str]:
    """The doc's one `local-model serve ... -- checkout-consent run pizza` command."""
    found = [
        line
        for line in DOC.read_text().splitlines()
        if line.startswith("checkout-consent local-model serve ") and " run pizza " in line
    ]
    assert len(found) == 1, f"{DOC} shows {len(found)} serve-and-run-pizza commands"
    return shlex.split(found[0])


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_recipe__a_ladder_model_plays_a_pizza_task_with_executed_calls(tmp_path):
    from inspect_ai.log import read_eval_log

    argv = documented_serve()
    for flag in ("--server", "--weights"):
        path = Path(argv[argv.index(flag) + 1])
        assert path.is_file(), f"{path} is missing: make it with {DOC.name} sections 1 and 2"
    port = argv.index("--port") + 1
    argv[port] = str(_free_port())
    logs = tmp_path / "logs"
    argv += ["--log-dir", str(logs), "--max-retries", "2", "--timeout", "900", "--json"]
    argv[argv.index("--") : argv.index("--")] = ["--server-log", str(tmp_path / "server.log")]
    print("running:", shlex.join(argv))
    done = subprocess.run(argv, capture_output=True, text=True, timeout=3600, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    (log_path,) = logs.glob("*.eval")
    log = read_eval_log(str(log_path))
    served = (log.eval.metadata or {})["local_server"]
    assert served["chat_template"]["protocol"] == "adapted", served
    (sample,) = log.samples or []
    calls = [c for m in sample.messages if m.role == "assistant" for c in (m.tool_calls or [])]
    # executed: the world ran the call (its answer may be a domain error the model reads);
    # a call whose arguments did not parse never reached it
    executed = [
        m
        for m in sample.messages
        if m.role == "tool" and (m.error is None or m.error.type != "parsing")
    ]
    record = next(iter(sample.scores.values())).metadata["record"]
    print(f"{len(calls)} parsed calls, {len(executed)} executed; record score {record['score']}")
    print(json.dumps({k: record[k] for k in ("task_id", "score", "calls", "policy_violations")}))
    assert calls and executed and record["calls"] >= 1
    assert re.fullmatch(r"wrong-topping-1", record["task_id"])
