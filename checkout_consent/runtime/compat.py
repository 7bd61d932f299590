"""The one place that touches Inspect's private modules. Each import here is something
Inspect does not export publicly; pin inspect-ai and re-check these on an upgrade."""

from __future__ import annotations


def prerequisite_error() -> type[Exception]:
    """Inspect's PrerequisiteError: raised for a bad `-T` or a missing provider key, and
    printed by `inspect eval` as one line with no traceback."""
    from inspect_ai._util.error import PrerequisiteError

    return PrerequisiteError


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
    """How many tool functions Inspect has parsed and keeps for the life of the process
    (its tool-info cache, never evicted): a long run must not grow it per sample."""
    from inspect_ai.tool._tool_info import _tool_info_cache

    return len(_tool_info_cache)
