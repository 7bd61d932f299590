"""Inspect glue for the CLI: run a family's task through `inspect_ai.eval`, read the records."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from checkout_consent.core.contract import Record, World
from checkout_consent.runtime import local_server
from checkout_consent.runtime.compat import prerequisite_error, read_log_samples
from checkout_consent.runtime.meta import task_factory


class RunFailed(RuntimeError):
    """An evaluation did not complete, or a sample's trace failed its replay."""


@dataclass(frozen=True)
class ModelRun:
    model: str
    records: list[Record]
    log_path: str


def log_records(log: Any) -> list[Record]:
    """The score records of a finished log, read one sample at a time (a 10,000-sample run
    never holds every sample), and of each only its scores (a quarter of the parse cost)."""
    from inspect_ai.log import EvalSample, read_eval_log

    header = read_eval_log(log.location, header_only=True)
    ids = header.eval.dataset.sample_ids
    if ids is None:
        raise RunFailed(f"the log lists no sample ids (see {log.location})")
    epochs = range(1, (header.eval.config.epochs or 1) + 1)
    unread = {
        name
        for name, field in EvalSample.model_fields.items()
        if not field.is_required() and name not in ("scores", "error")
    }
    keyed: list[tuple[tuple[str, int], Record]] = []

    def keep(sample: Any) -> None:
        score = next(iter((sample.scores or {}).values()), None)
        if score is None:
            why = (sample.error.message.strip().splitlines() or [""])[-1] if sample.error else ""
            ended = f": it ended in an error ({why[:200]})" if why else ""
            raise RunFailed(f"sample {sample.id} has no score{ended} (see {log.location})")
        metadata = score.metadata or {}
        if "record" not in metadata:
            raise RunFailed(f"sample {sample.id}: {score.explanation} (see {log.location})")
        keyed.append(((str(sample.id), sample.epoch), metadata["record"]))

    try:
        read_log_samples(log.location, [(i, e) for i in ids for e in epochs], unread, keep)
    except IndexError as err:  # a listed sample is not in the file
        raise RunFailed(f"{err} (see {log.location})") from None
    return [record for _, record in sorted(keyed, key=lambda kv: kv[0])]


CONTROL_MAX_SAMPLES = 10  # samples in flight when every model is an in-process control
LOG_BUFFER = 50  # finished samples held before a log flush: Inspect's own figure at 1,000


def log_buffer(samples: int) -> int | None:
    """Inspect's `log_buffer` for a run of this many samples (None: Inspect's default): from
    1,000 on, LOG_BUFFER, so the finished samples held do not grow with the run."""
    return LOG_BUFFER if samples >= 20 * LOG_BUFFER else None


def sample_concurrency(models: list[str], eval_args: dict[str, Any]) -> dict[str, Any]:
    """Inspect's `max_samples` for this run: CONTROL_MAX_SAMPLES for controls (they wait on
    nothing, so more in flight only hold memory); one for a `human/` model."""
    if any(m.startswith("human/") for m in models):
        if (eval_args.get("max_samples") or 1) != 1:
            raise RunFailed("human/web plays one sample at a time: drop --max-samples")
        return {"max_samples": 1}  # a person plays one sample at a time
    chosen = {
        k: eval_args[k] for k in ("max_samples", "max_connections") if eval_args.get(k) is not None
    }
    if not chosen and all(m.startswith("control/") for m in models):
        return {"max_samples": CONTROL_MAX_SAMPLES}
    return {"max_samples": eval_args.get("max_samples")}


def refused(models: str, err: BaseException) -> RunFailed:
    """Inspect's refusal of a run (e.g. a provider whose API key is not set), in one line."""
    plain = re.sub(r"\[/?[a-z ]+\]", "", str(err)).replace("ERROR: ", "")
    return RunFailed(f"{models}: {' '.join(plain.split())}")


def build_task(world: World, task_args: dict[str, Any] | None = None) -> Any:
    """The world's Inspect Task, built by its registered factory."""
    arguments = dict(world.dataset.public_args) if task_args is None else task_args
    return task_factory(world)(**arguments)


def run_models(
    world: World,
    models: list[str],
    *,
    task_args: dict[str, Any] | None = None,
    log_dir: str | Path = "logs",
    epochs: int | None = None,
    display: str = "none",
    log_realtime: bool = False,
    task: Any = None,
    **eval_args: Any,
) -> list[ModelRun]:
    """Run the family's task once per model; return the records of each, in model order."""
    from inspect_ai import eval as inspect_eval

    eval_args = {**eval_args, **sample_concurrency(models, eval_args)}
    if "metadata" not in eval_args and (served := local_server.of_run(models, eval_args)):
        eval_args["metadata"] = {"local_server": served}
    try:
        logs = inspect_eval(
            task if task is not None else build_task(world, task_args),
            model=models,
            log_dir=str(log_dir),
            epochs=epochs or world.epochs,
            display=display,  # type: ignore[arg-type]
            score_display=False,
            log_realtime=log_realtime,
            log_header_only=True,
            **eval_args,
        )
    except prerequisite_error() as err:  # e.g. a provider whose API key is not set
        raise refused(", ".join(models), err) from None
    if len(logs) != len(models) or any(log.status == "cancelled" for log in logs):
        raise KeyboardInterrupt  # Inspect stopped the run on Ctrl-C and returned what it had
    runs = []
    for log in logs:
        if log.status != "success":
            why = log.error.message if log.error else log.status
            raise RunFailed(
                f"{world.name} with {log.eval.model} did not finish: {why} (log: {log.location})"
            )
        runs.append(ModelRun(log.eval.model, log_records(log), log.location))
    by_model = {r.model: r for r in runs}
    return [by_model[m] for m in models]


def run_eval_set(tasks: list[Any], *, log_dir: str, model: str, **options: Any) -> list[Any]:
    """The tasks as one resumable `inspect_ai.eval_set` over `log_dir`: the logs' headers."""
    import contextlib
    import contextvars
    import sys

    from inspect_ai import eval_set

    def run() -> Any:
        with contextlib.redirect_stdout(sys.stderr):
            return eval_set(tasks, log_dir=log_dir, model=model, score_display=False, **options)

    try:  # in a copy of this context: eval_set leaves its active model set in the caller's
        _, logs = contextvars.copy_context().run(run)
    except prerequisite_error() as err:
        raise refused(model, err) from None
    return list(logs)


def run_controls(
    world: World, *, log_dir: str | Path = "logs", task_args: dict[str, Any] | None = None
) -> dict[str, list[Record]]:
    """Every sanity control of the family, offline: control name -> records."""
    name = world.family
    models = [f"control/{name}-{c}" for c in world.controls.sanity]
    runs = run_models(world, models, task_args=task_args, log_dir=log_dir)
    return {c: run.records for c, run in zip(world.controls.sanity, runs, strict=True)}
