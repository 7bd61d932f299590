"""Record a run into a cassette directory with its goldens, or replay one and compare; and
the reference runs (each world's `recorded` controls, played by `serve-controls` on the
fixed loopback port through Inspect's providers), under `cassettes/<world>/`."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path
from typing import Any, NamedTuple

from checkout_consent.cassettes import store
from checkout_consent.cassettes.preflight import (
    check_directory,
    check_key,
    check_provider,
    is_loopback,
    scenario_note,
)
from checkout_consent.cassettes.session import (
    REPLAY_EVAL_ARGS,
    REPLAY_MODEL_ARGS,
    CassetteMiss,
    cassette,
)
from checkout_consent.core.contract import Record, World
from checkout_consent.endpoint.controls import FIXED_PORT, HOST, serving
from checkout_consent.families import WORLDS, world_named
from checkout_consent.runtime import local_server
from checkout_consent.runtime.logs import read_log
from checkout_consent.runtime.runner import RunFailed, run_models

Records = dict[str, Record]  # run unit (`<sample id>-<epoch>`, as a file stem) -> record
# Whose versions run.json notes: they shape the request bodies a replay must match.
RECORDED_WITH = ("inspect-ai", "vcrpy", "openai", "anthropic")
VOLATILE_SUFFIXES = ("git_sha", "_seconds", "latency_s")  # the checkout, or wall-clock


class Outcome(NamedTuple):
    """A recorded or replayed run: its records, where its log is, how it differs from gold."""

    directory: Path
    records: Records
    log_path: str
    differences: list[str]
    notes: tuple[str, ...] = ()  # e.g. not the family's public scenario set


def is_volatile(key: str) -> bool:
    """Record fields that describe the checkout or the machine, not the run: not compared."""
    return key.endswith(VOLATILE_SUFFIXES)


def unit_records(log_path: str) -> Records:
    """The score record of every (sample, epoch) of a log, by run unit."""
    log = read_log(log_path)
    out: Records = {}
    for sample in log.samples or []:
        score = next(iter((sample.scores or {}).values()), None)
        metadata = (score.metadata if score else None) or {}
        if "record" not in metadata:
            raise RunFailed(f"sample {sample.id} epoch {sample.epoch} has no record ({log_path})")
        out[store.unit_stem(f"{sample.id}-{sample.epoch}")] = golden(metadata)
    return out


def golden(metadata: dict[str, Any]) -> Record:
    """A unit's golden: the record, with the run facts the traffic fixes as its `provenance`."""
    provenance = {
        k: v
        for k, v in (metadata.get("provenance") or {}).items()
        if not is_volatile(k) and not k.endswith("_version")
    }
    return {**metadata["record"], "provenance": provenance}


def _flat(record: Record) -> Record:
    nested = record.get("provenance")
    if not isinstance(nested, dict):
        return record
    return {
        **{k: v for k, v in record.items() if k != "provenance"},
        **{f"provenance.{k}": v for k, v in nested.items()},
    }


def _run(
    manifest: store.Manifest,
    log_dir: str | Path,
    replay: bool,
    eval_args: dict[str, Any] | None = None,
) -> tuple[Records, str]:
    model_args = {**manifest.model_args, **(REPLAY_MODEL_ARGS if replay else {})}
    eval_args = {**(REPLAY_EVAL_ARGS if replay else {}), **(eval_args or {})}
    if manifest.max_connections:
        eval_args["max_connections"] = manifest.max_connections
    # the log says what the recorded server applied, replayed or live (never asked again
    # here: inside a cassette the server is the recording)
    eval_args["metadata"] = {"local_server": manifest.server} if manifest.server else {}
    run = run_models(
        world_named(manifest.family),
        [manifest.model],
        task_args=manifest.task_args,
        log_dir=log_dir,
        epochs=manifest.epochs,
        model_base_url=manifest.base_url,
        model_args=model_args,
        **eval_args,
    )[0]
    return unit_records(run.log_path), run.log_path


def record(
    manifest: store.Manifest,
    *,
    root: Path = store.CASSETTE_ROOT,
    log_dir: str | Path = "logs",
    eval_args: dict[str, Any] | None = None,
) -> Outcome:
    """Run live; save the traffic as cassettes and the records as goldens. Model args that
    carry credentials are used for the run but never written to run.json."""
    kept = {k: v for k, v in manifest.model_args.items() if k not in store.SECRET_MODEL_ARGS}
    lend = is_loopback(manifest.base_url)
    stamped = dataclasses.replace(
        manifest,
        model_args=kept,
        recorded_with={dist: version(dist) for dist in RECORDED_WITH},
        server=local_server.setting(manifest.base_url) if lend else None,
    )
    check_provider(manifest.model, "record")
    check_key(manifest.model, manifest.base_url, manifest.model_args)
    directory = store.run_dir(world_named(manifest.family).name, manifest.model, root)
    created = [d for d in (directory, *directory.parents) if not d.exists()]
    live = dataclasses.replace(stamped, model_args=manifest.model_args)
    try:
        with cassette(directory, "record", lend_key=lend, model=manifest.model):
            records, log_path = _run(live, log_dir, replay=False, eval_args=eval_args)
    except BaseException:
        store.clear(directory)  # no half-recorded cassette is left behind
        for d in created:  # nor a folder this recording made (innermost first)
            if d.is_dir() and not any(d.iterdir()):
                d.rmdir()
        raise
    store.write_goldens(directory, records)
    stamped.write(directory)  # last: a directory with run.json holds a finished recording
    return Outcome(directory, records, log_path, [])


def differences(golden: Records, replayed: Records) -> list[str]:
    """Every way the replayed records differ from the golden ones, one line each."""
    out = [f"{u}: in the golden records, not replayed" for u in sorted(golden.keys() - replayed)]
    out += [f"{u}: replayed, no golden record" for u in sorted(replayed.keys() - golden)]
    for unit in sorted(golden.keys() & replayed.keys()):
        want, got = _flat(golden[unit]), _flat(replayed[unit])
        for key in sorted(want.keys() | got.keys()):
            if not is_volatile(key) and want.get(key) != got.get(key):
                out.append(
                    f"{unit}: {key} golden {json.dumps(want.get(key))[:120]} "
                    f"!= replayed {json.dumps(got.get(key))[:120]}"
                )
    return out


def replay(directory: Path, *, log_dir: str | Path = "logs", rewrite: bool = False) -> Outcome:
    """Replay one cassette directory and compare with its goldens (no differences: exact).
    `rewrite`: a replay that made exactly the recorded requests rewrites the goldens.
    CassetteRefused (before any Inspect work) for a directory this suite does not write,
    CassetteMiss for a request the cassette does not hold."""
    manifest = check_directory(directory)
    goldens = store.read_goldens(directory)  # a bad golden is refused before the run too
    with cassette(directory, "replay", model=manifest.model) as session:
        try:
            records, log_path = _run(manifest, log_dir, replay=True)
        except RunFailed as err:
            session.check()  # a miss explains the failure better than the failure does
            raise CassetteMiss(f"replay of {directory} failed: {err}") from err
        session.check()
    found = differences(goldens, records)
    if session.unplayed:
        found.append(
            f"the cassette holds {len(session.unplayed)} recorded request(s) the "
            f"replay never made; the first: {session.unplayed[0]}"
        )
    notes = [note] if (note := scenario_note(manifest)) else []
    if rewrite and not session.unplayed:
        store.write_goldens(directory, records)
        notes.append(f"goldens rewritten from the replay ({len(found)} difference(s) before)")
        found = []
    return Outcome(directory, records, log_path, found, tuple(notes))


class Reference(NamedTuple):
    family: str  # the world's name, as its run.json names it (`record-references --family`)
    provider: str  # "openai" or "anthropic"
    control: str  # control name without the family prefix

    @property
    def world(self) -> World:
        return world_named(self.family)

    @property
    def model(self) -> str:
        """`<provider>/<family>-<control>` (a family's second world plays `<family>-oracle`)."""
        return f"{self.provider}/{self.world.family}-{self.control}"

    def directory(self, root: Path = store.CASSETTE_ROOT) -> Path:
        return store.run_dir(self.family, self.model, root)

    @property
    def manifest(self) -> store.Manifest:
        """How a reference run is made: the world's public scenarios, one epoch."""
        base_url, model_args = endpoint(self.provider)
        return store.Manifest(
            family=self.family,
            model=self.model,
            base_url=base_url,
            model_args=model_args,
            task_args=dict(self.world.dataset.public_args),
            epochs=1,
        )


def references() -> tuple[Reference, ...]:
    """Every reference run, from the roster: each world's `recorded` (provider, control)."""
    return tuple(
        Reference(world.name, provider, control)
        for world in WORLDS
        for provider, control in world.controls.recorded
    )


# provider -> (its wire format's path on a serve-controls, model args of its runs)
WIRES: dict[str, tuple[str, dict[str, Any]]] = {
    "openai": ("/v1", {"responses_api": False}),
    "anthropic": ("", {}),
}


def endpoint(provider: str, url: str = f"http://{HOST}:{FIXED_PORT}") -> tuple[str, dict[str, Any]]:
    """`provider`'s base URL on the serve-controls at `url`, and its runs' model args."""
    path, model_args = WIRES[provider]
    return url + path, dict(model_args)


# The endpoint is local and deterministic: a failed request is a bug, not a blip to wait out
# (Inspect's default retries a connection error for a very long time).
LOCAL_EVAL_ARGS: dict[str, object] = {"max_retries": 0, "timeout": 120}


def record_references(
    families: list[str] | None = None,
    *,
    root: Path = store.CASSETTE_ROOT,
    log_dir: str | Path = "logs",
    announce: Callable[[str], None] = print,
) -> list[Path]:
    """Record every reference run (of the named families); the directories written."""
    chosen = [r for r in references() if not families or r.family in families]
    written: list[Path] = []
    with serving(port=FIXED_PORT):
        for ref in chosen:
            announce(f"recording {ref.family} {ref.model} ...")
            outcome = record(ref.manifest, root=root, log_dir=log_dir, eval_args=LOCAL_EVAL_ARGS)
            written.append(outcome.directory)
    return written
