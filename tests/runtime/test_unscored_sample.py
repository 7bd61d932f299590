"""A sample that ends in an error (a person who stopped the run, a provider that gave up)
has no score: `run` says so in one line with the error's own last line and the log."""

from __future__ import annotations

from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import get_model

from checkout_consent.pizza.task import pizza
from checkout_consent.runtime.runner import RunFailed, log_records

pytestmark = pytest.mark.inspect


def test_log_records__an_errored_sample_is_named_with_its_error(tmp_path: Path) -> None:
    def stop(*_args: object) -> object:
        raise RuntimeError("human/web: the run was stopped by the player")

    model = get_model("mockllm/model", custom_outputs=stop)
    (log,) = inspect_eval(
        pizza(tasks="wrong-topping-1"),
        model=model,
        log_dir=str(tmp_path),
        display="none",
        fail_on_error=False,
    )
    with pytest.raises(RunFailed) as err:
        log_records(log)
    assert str(err.value) == (
        "sample wrong-topping-1 has no score: it ended in an error (RuntimeError('human/web: "
        f"the run was stopped by the player')) (see {log.location})"
    )
