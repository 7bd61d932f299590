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
