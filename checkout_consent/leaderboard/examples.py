"""Regenerate the committed example submissions: `python -m checkout_consent.leaderboard.examples`.

One submission per recorded control run of every world (each world's `recorded` cassettes
through the `openai` provider): the cassette is replayed offline into a fresh .eval log,
and the folder gets that log, the cassette, and a card whose figures come from re-grading
the log. `direct` adds runs through the offline `control/` provider with no cassette (a
submission may omit cassettes): each world's `Board.direct_examples` (a control that
shows another side of its board), or the reference control of a world with no recording
yet. A world that names its scenario (its records carry it) names its examples by it
(`control-<scenario>-<control>`).
They are labelled `kind: control`: scripted agents, not models. The committed runs of real
models (`REAL_MODELS`, each world's cassette of it) become `kind: model` submissions
(`model-<world>-<slug>`). Run it again after a world version changes (after
`checkout-consent record-references`, and `checkout-consent replay --write-goldens` for a
real model's cassette, which cannot be recorded again)."""

from __future__ import annotations

import argparse
import datetime
import shutil
import tempfile
from pathlib import Path
from typing import Any

from checkout_consent import __version__
from checkout_consent.core.contract import World
from checkout_consent.families import WORLDS
from checkout_consent.leaderboard.submission import Card, dump_card
from checkout_consent.leaderboard.validate import Verdict, regrade
from checkout_consent.runtime.ladder import REAL, Rung
from checkout_consent.runtime.logs import read_log
from checkout_consent.runtime.provenance import REPO_ROOT

REPO = REPO_ROOT  # the checkout (or, from a wheel, the current directory)
SUBMISSIONS = REPO / "leaderboard" / "submissions"
CASSETTES = REPO / "cassettes"


def submission_id(world: World, control: str) -> str:
    """`control-<world>-<control>`, or `control-<scenario>-<control>` for a world that
    names its scenario (its records say which)."""
    return f"control-{world.meta.scenario or world.name}-{control}"


# The committed runs of real models (not controls): the ladder's rungs and the runs under a
# model's own template (runtime/ladder.py), each world's cassette of them
REAL_MODELS = REAL


def harness(rung: Rung, server: dict[str, Any] | None) -> str:
    """The harness line a real model's card states, from what its server said it applied
    (run.json's `server`): the weights, the template, sampling and slots."""
    if not server:  # recorded before run.json carried the server's setting
        return (
            f"{rung.name} GGUF (sha256 {rung.short_sha}) on llama-server, --jinja with the "
            "model's own template, temp 0 (run.json predates the recorded setting)"
        )
    template = server.get("chat_template") or {}
    sha = str(template.get("sha256", ""))[:8] if isinstance(template, dict) else ""
    name = template.get("name") if isinstance(template, dict) else None
    return (
        f"{rung.name} GGUF (sha256 {rung.short_sha}) on llama-server, template {name} "
        f"({sha}), temp {server.get('temperature')}, seed {server.get('seed')}, "
        f"{server.get('slots')} slot(s) of {server.get('n_ctx_per_slot')} tokens, CPU"
    )[:200]


CONTROL_HARNESS = (
    "scripted control served by `checkout-consent serve-controls`, "
    "played through the suite's episode solver"
)


def _protocol(rung: Rung, server: dict[str, Any] | None) -> str | None:
    """The recorded protocol; for a run recorded before run.json carried it, the one the
    ladder states it was served under (docs/local-models.md: `--jinja`, no template file)."""
    template = (server or {}).get("chat_template")
    if isinstance(template, dict):
        return str(template.get("protocol"))
    return "native" if rung.template == "native" else None


def _card(
    world: World, control: str, log_path: Path, real: str = "", server: dict[str, Any] | None = None
) -> Card:
    """The card of a control's run, or (`real`: its Inspect model name, `server` its
    recorded server setting) a real model's."""
    log, graded = read_log(log_path), Verdict(str(log_path), samples=regrade(log_path).samples)
    model, tokens = str(log.eval.model), graded.tokens
    listed, normalized = graded.costs(model)
    stats = log.stats
    wall = (
        datetime.datetime.fromisoformat(stats.completed_at)
        - datetime.datetime.fromisoformat(stats.started_at)
    ).total_seconds()
    return Card.model_validate(
        {
            "schema_version": 1,
            "submission_id": real_id(world, real) if real else submission_id(world, control),
            "family": world.name,
            "kind": "model" if real else "control",
            "model": {"id": model, "provider": model.split("/")[0]},
            "agent": {
                "harness": harness(REAL[real], server) if real else CONTROL_HARNESS,
                "tools": sorted(world.actions),
                "tool_protocol": _protocol(REAL[real], server) if real else None,
            },
            "date": str(log.eval.created)[:10],
            "suite_version": __version__,
            "world_version": world.world_version,
            "task_set": "public",
            "epochs": 1,
            "wall_time_seconds": round(wall, 1),
            "tokens": {"input": tokens[0], "output": tokens[1]},
            "cost": {"list_usd": listed, "normalized_usd": normalized},
            "contact": "checkout-consent maintainers (generated by "
            "python -m checkout_consent.leaderboard.examples)",
        }
    ).model_copy(update={"section": _section(world)})


def _section(world: World) -> dict[str, Any] | None:
    example = world.board.card_example
    return None if example is None else dict(example)


def real_id(world: World, model: str) -> str:
    """`model-<world or scenario>-<slug>`: a real model's committed run."""
    return f"model-{world.meta.scenario or world.name}-{REAL[model].slug}"


def make(world: World, control: str, out: Path = SUBMISSIONS, real: str = "") -> Path:
    """Replay one recorded control run (or, `real`, a real model's) and write its
    submission folder; return the folder."""
    from checkout_consent.cassettes import runs, store

    model = real or f"openai/{world.family}-{control}"
    cassette = store.run_dir(world.name, model, CASSETTES)
    folder = out / world.name / (real_id(world, real) if real else submission_id(world, control))
    with tempfile.TemporaryDirectory(prefix="cc-examples-") as logs:
        outcome = runs.replay(cassette, log_dir=logs)
        if outcome.differences:
            raise SystemExit(f"{cassette}: does not replay cleanly: {outcome.differences[0]}")
        shutil.rmtree(folder, ignore_errors=True)
        (folder / "logs").mkdir(parents=True)
        shutil.copyfile(outcome.log_path, folder / "logs" / "run.eval")
    shutil.copytree(cassette, folder / "cassettes" / cassette.name)
    server = store.Manifest.read(cassette).server
    card = _card(world, control, folder / "logs" / "run.eval", real, server)
    (folder / "submission.yaml").write_text(dump_card(card))
    return folder


def real_runs(world: World) -> list[str]:
    """The real models (REAL_MODELS) with a committed cassette of this world. A cassette of
    part of its public set (its first four seeds, say) makes a partial submission:
    the board lists it with its coverage, never ranked (expected.partial)."""
    from checkout_consent.cassettes import store

    return [
        m for m in REAL_MODELS if (store.run_dir(world.name, m, CASSETTES) / "run.json").is_file()
    ]


def make_direct(world: World, control: str, out: Path = SUBMISSIONS) -> Path:
    """Run one control through the `control/` provider (no cassette); write its folder."""
    from checkout_consent.runtime.runner import run_models

    folder = out / world.name / submission_id(world, control)
    with tempfile.TemporaryDirectory(prefix="cc-examples-") as logs:
        run = run_models(world, [f"control/{world.family}-{control}"], log_dir=logs)[0]
        shutil.rmtree(folder, ignore_errors=True)
        (folder / "logs").mkdir(parents=True)
        shutil.copyfile(run.log_path, folder / "logs" / "run.eval")
    card = _card(world, control, folder / "logs" / "run.eval")
    (folder / "submission.yaml").write_text(dump_card(card))
    return folder


def recorded(world: World) -> list[str]:
    """The controls of the family's reference cassettes recorded through `openai`."""
    return sorted({c for provider, c in world.controls.recorded if provider == "openai"})


def direct(world: World) -> tuple[str, ...]:
    """Controls run with no cassette: the board's `direct_examples`, or the reference
    control of a world that has no `openai` recording yet."""
    return world.board.direct_examples or (() if recorded(world) else (world.controls.reference,))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m checkout_consent.leaderboard.examples", description=__doc__.splitlines()[0]
    )
    ap.add_argument("--world", action="append", help="only these worlds (repeatable)")
    args = ap.parse_args(argv)
    for world in WORLDS:
        if args.world and world.name not in args.world:
            continue
        for control in recorded(world):
            if control not in direct(world):  # a direct example is the board's choice
                print(make(world, control).relative_to(REPO), flush=True)
        for control in direct(world):
            print(make_direct(world, control).relative_to(REPO), flush=True)
        for model in real_runs(world):
            print(make(world, "", real=model).relative_to(REPO), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
