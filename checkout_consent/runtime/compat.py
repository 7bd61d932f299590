"""The one place that touches Inspect's private modules. Each import here is something
Inspect does not export publicly; pin inspect-ai and re-check these on an upgrade."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any


def prerequisite_error() -> type[Exception]:
    """Inspect's PrerequisiteError: `inspect eval` prints it as one line, no traceback."""
    from inspect_ai._util.error import PrerequisiteError

    return PrerequisiteError


def active_model_api() -> object | None:
    """The ModelAPI of the model `inspect eval` is building tasks for, or None."""
    from inspect_ai.model._model import active_model

    model = active_model()
    return None if model is None else model.api


def create_task(name: str, **task_args: Any) -> Any:
    """A registered task built as `inspect eval` builds it from `-T`."""
    from inspect_ai._eval.registry import task_create

    return task_create(name, **task_args)


def registered_task(name: str) -> Any:
    """The function registered as task `name` (None if there is none)."""
    from inspect_ai._util.registry import registry_lookup

    return registry_lookup("task", name)


def parse_task_args(items: list[str]) -> dict[str, Any]:
    """`-T key=value` items as `inspect eval` hands them to a task (values parsed as YAML)."""
    from inspect_ai._util.config import parse_cli_args

    return parse_cli_args(items)


def task_args_of(task: Any) -> dict[str, Any]:
    """The arguments a built Task was made with, as its log's `eval.task_args_passed`."""
    from inspect_ai._eval.loader import resolve_task_args

    return resolve_task_args(task)


def enable_zstd_zip() -> None:
    """Teach `zipfile` the zstd compression Inspect's .eval logs use."""
    import inspect_ai._util.zipfile  # noqa: F401


TOOL_OUTPUT_LIMIT = 16 * 1024  # Inspect's default max_tool_output, in bytes


def shown_tool_output(tool: str, text: str) -> str:
    """A tool result as Inspect shows it to the model (over-long output truncated)."""
    from inspect_ai.model._call_tools import truncate_tool_output

    truncated = truncate_tool_output(tool, text, TOOL_OUTPUT_LIMIT)
    return truncated.output if truncated else text


def tool_info_cache_size() -> int:
    """How many tool functions Inspect has parsed and keeps (its never-evicted cache)."""
    from inspect_ai.tool._tool_info import _tool_info_cache

    return len(_tool_info_cache)


def read_log_samples(
    location: str,
    keys: list[tuple[str | int, int]],
    exclude_fields: set[str],
    each: Callable[[Any], None],
) -> None:
    """Hand every (id, epoch) sample of a finished .eval log to `each`, parsed without
    `exclude_fields`, one at a time, through one zip reader (Inspect's public reader parses
    the zip directory again per sample: a cost quadratic in the run's size)."""
    import anyio
    from inspect_ai._util.async_zip import AsyncZipReader
    from inspect_ai._util.asyncfiles import AsyncFilesystem
    from inspect_ai.log._recorders.eval import EvalRecorder

    async def read_all() -> None:
        async with AsyncFilesystem() as fs:
            reader = AsyncZipReader(fs, location)
            for sample_id, epoch in keys:
                each(
                    await EvalRecorder.read_log_sample(
                        location, sample_id, epoch, exclude_fields=exclude_fields, reader=reader
                    )
                )

    anyio.run(read_all)


@contextlib.contextmanager
def zip_directory_reads() -> Iterator[list[str]]:
    """Inside the block, every .eval file whose zip directory Inspect parses is listed."""
    from inspect_ai._util import async_zip

    seen: list[str] = []
    real = async_zip._parse_central_directory

    async def counting(*args: Any, **kwargs: Any) -> Any:
        seen.append(str(args[1]) if len(args) > 1 else "?")
        return await real(*args, **kwargs)

    async_zip._parse_central_directory = counting  # type: ignore[assignment]
    try:
        yield seen
    finally:
        async_zip._parse_central_directory = real


def default_log_buffer(samples: int) -> int:
    """The log buffer Inspect's .eval recorder picks for a run of this many samples."""
    from inspect_ai.log._recorders.eval import EvalRecorder

    return int(EvalRecorder.default_log_buffer(None, samples, True))  # type: ignore[arg-type]


def registered_sandbox(name: str) -> type:
    """The sandbox environment class Inspect has registered under `name` (`--sandbox NAME`)."""
    from inspect_ai.util._sandbox.registry import registry_find_sandboxenv

    return registry_find_sandboxenv(name)


@contextlib.contextmanager
def sandbox_in_context(environment: Any) -> Iterator[None]:
    """Make `environment` the current sample's default sandbox, outside an eval."""
    from inspect_ai.util._sandbox.context import (
        sandbox_default_context_var,
        sandbox_environments_context_var,
    )

    envs = sandbox_environments_context_var.set({"default": environment})
    default = sandbox_default_context_var.set("default")
    try:
        yield
    finally:
        sandbox_default_context_var.reset(default)
        sandbox_environments_context_var.reset(envs)


def active_sample() -> Any:
    """The running sample's ActiveSample (None outside one)."""
    from inspect_ai.log._samples import sample_active

    return sample_active()


def sample_running(sample: Any) -> bool:
    """Whether an ActiveSample has neither completed nor left Inspect's list of samples."""
    from inspect_ai.log._samples import active_samples

    return sample.completed is None and sample in active_samples()


def awaiting_human() -> contextlib.AbstractContextManager[None]:
    """Marks the sample as waiting on a person (not charged as its working time)."""
    from inspect_ai.log._samples import awaiting_human as waiting

    return waiting("question", "")


def task_path_excluded(path: str) -> bool:
    """Whether `inspect list tasks` and `inspect eval <folder>` skip a path."""
    from inspect_ai._eval.list import is_task_path_excluded

    return bool(is_task_path_excluded(path))
