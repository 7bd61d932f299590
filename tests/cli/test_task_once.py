"""A CLI run builds its Task once: sanity's scenarios, the size check and the model run share
the one object, which is handed to Inspect (no import by name, no rebuild)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import inspect_ai
import pytest

from checkout_consent.cli import common
from checkout_consent.cli.main import main


@pytest.mark.inspect
def test_run__a_model_run_builds_one_task(tmp_path: Path, monkeypatch: Any, capsys: Any) -> None:
    built: list[object] = []
    original = inspect_ai.Task.__init__

    def counting(self: Any, *args: Any, **kwargs: Any) -> None:
        built.append(self)
        original(self, *args, **kwargs)

    monkeypatch.setattr(inspect_ai.Task, "__init__", counting)
    monkeypatch.setattr(common, "_BUILT", {})
    code = main(
        ["--log-dir", str(tmp_path), "run", "storefront", "--model", "control/storefront-oracle"]
    )
    assert code == 0, capsys.readouterr().err
    assert len(built) == 1
