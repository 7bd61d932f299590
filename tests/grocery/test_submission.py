"""A submitted cart gets no more than the live store allows (its pack cap per product), a
bounded number of lines (the entry points' shared cap, refused before any line is parsed),
no unknown fields, and a real calendar date; the scoring service stores its own date and
the graded task."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from checkout_consent.core.world import apply
from checkout_consent.grocery import WORLD, dataset, initial
from checkout_consent.grocery.actions import ACTIONS, MAX_PACKS
from checkout_consent.grocery.submission import InvalidSubmission, score_submission
from checkout_consent.serve.api import arguments
from checkout_consent.serve.api.arguments import MAX_ITEMS
from checkout_consent.serve.api.service import Service
from checkout_consent.serve.api.storage import Storage
from checkout_consent.serve.api.submission import MAX_BODY, Invalid, parse_json, score
from tests.grocery.helpers import reference_lines, reference_submission, scenario, submission

SKU = reference_lines("normal-week")[0][0]


def _store_accepts(quantities: list[int]) -> bool:
    """Whether the live store lets the agent add these packs of SKU, call by call."""
    state = initial(scenario("normal-week"))
    for packs in quantities:
        step = apply(ACTIONS, state, "add_to_cart", {"sku": SKU, "quantity": packs})
        if not step.ok:
            return False
        state = step.state
    return True


@pytest.mark.parametrize(
    "quantities", [[MAX_PACKS] * 3, [MAX_PACKS, 1], [MAX_PACKS // 2] * 2, [MAX_PACKS]]
)
def test_submission__duplicate_lines_get_the_stores_own_pack_cap(quantities: list[int]) -> None:
    data = submission("normal-week", [(SKU, q) for q in quantities])
    try:
        record = score_submission(data)
    except InvalidSubmission as refused:
        assert refused.field == "cart.lines.quantity" and f"over {MAX_PACKS}" in str(refused)
        assert not _store_accepts(quantities)
    else:
        assert _store_accepts(quantities)
        assert sum(q for q in quantities) <= MAX_PACKS and record.task_id == "normal-week"


def test_submission__500000_lines_are_refused_fast_before_they_are_parsed() -> None:
    data = submission("normal-week", [(SKU, 1)] * 500_000)
    start = time.perf_counter()
    with pytest.raises(Invalid) as refused:
        arguments.body(data)  # what `score --cart` and the service run on a parsed body
    assert time.perf_counter() - start < 0.1
    assert refused.value.field == "cart.lines" and f"{MAX_ITEMS:,}" in str(refused.value)
    skus = sorted(dataset.load_catalog("3.0").by_sku)[:MAX_ITEMS]
    assert len(skus) == MAX_ITEMS  # the cap itself is scored
    score(WORLD, parse_json(json.dumps(submission("normal-week", [(s, 1) for s in skus])).encode()))


def _score_cart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str
) -> tuple[int, str, str]:
    """`score grocery --cart FILE` in this process (the subprocess path: test_cli.py)."""
    from checkout_consent.cli.main import main

    path = tmp_path / "cart.json"
    path.write_text(text, encoding="utf-8")
    code = main(["score", "grocery", "--task", "normal-week", "--cart", str(path)])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_score_cart__a_huge_file_is_refused_before_parsing_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = json.dumps({"sku": SKU, "quantity": 1})
    head = json.dumps(submission("normal-week", []))  # 500,000 lines: 17 MB
    text = head.replace('"lines": []', '"lines": [' + ", ".join([line] * 500_000) + "]")
    assert len(text) > 17 * MAX_BODY
    _score_cart(tmp_path, capsys, "{}")  # the command's own imports, once
    start = time.perf_counter()
    code, out, err = _score_cart(tmp_path, capsys, text)
    assert time.perf_counter() - start < 0.5  # writing the file included
    assert code == 2 and out == "" and err.count("\n") == 1
    assert f"larger than {MAX_BODY:,} bytes" in err


def test_score_cart__too_many_lines_exit_2_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _score_cart(
        tmp_path, capsys, json.dumps(submission("normal-week", [(SKU, 1)] * (MAX_ITEMS + 1)))
    )
    assert code == 2 and out == "" and err.count("\n") == 1 and "cart.lines" in err


EXTRA = [
    (lambda d: d.update(task="../../etc/passwd' OR 1=1 --"), "task"),
    (lambda d: d["agent_card"].update(harness="x"), "agent_card.harness"),
    (lambda d: d["cart"].update(note="x"), "cart.note"),
    (lambda d: d["cart"]["lines"][0].update(price=0), "cart.lines.0.price"),
]


@pytest.mark.parametrize(("mutate", "field"), EXTRA)
def test_submission__unknown_fields_are_refused_naming_them(mutate: Any, field: str) -> None:
    data = reference_submission("normal-week")
    mutate(data)
    with pytest.raises(InvalidSubmission) as refused:
        score_submission(data)
    assert refused.value.field == field


@pytest.mark.parametrize(
    "bad", ["2026-02-31", "2026-04-31", "2025-02-29", "1900-02-29", "0000-01-01"]
)
def test_submission__scored_on_must_be_a_calendar_date(bad: str) -> None:
    with pytest.raises(InvalidSubmission) as refused:
        score_submission({**reference_submission("tight-week"), "scored_on": bad})
    assert refused.value.field == "scored_on" and "calendar date" in str(refused.value)


@pytest.mark.parametrize("day", ["2020-01-01", "2024-02-29", "2000-02-29"])
def test_submission__a_past_date_is_the_offline_scorers_input(day: str) -> None:
    """Offline (CLI, pure scorer) a past date reproduces the dated rule as of that day."""
    record = score_submission({**reference_submission("tight-week"), "scored_on": day})
    assert record.scored_on == day and not record.promo_pricing


@pytest.fixture
def service(tmp_path: Path) -> Service:
    return Service(Storage(str(tmp_path / "s.db")))


def _post(service: Service, data: dict[str, Any]) -> Any:
    return service.score("grocery", json.dumps(data).encode())


def test_service__stores_its_own_date_and_the_graded_task(service: Service) -> None:
    row = _post(service, {**reference_submission("normal-week"), "agent": {"name": "bot"}})
    assert (row.task, row.agent) == ("normal-week", "bot")
    assert row.record["scored_on"] == row.received_at[:10]
    assert service.submission(row.id).task == "normal-week"


@pytest.mark.parametrize("date", ["2020-01-01", "2099-01-01", "2026-02-31"])
def test_service__a_client_date_is_refused(service: Service, date: str) -> None:
    with pytest.raises(Invalid) as refused:
        _post(service, {**reference_submission("tight-week"), "scored_on": date})
    assert refused.value.field == "scored_on" and service.storage.count() == 0


def test_service__a_client_task_label_is_refused(service: Service) -> None:
    with pytest.raises(Invalid) as refused:
        _post(service, {**reference_submission("normal-week"), "task": "x' OR 1=1 --"})
    assert refused.value.field == "task" and service.storage.count() == 0
