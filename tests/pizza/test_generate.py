"""The generator: the public split regenerates byte for byte; other seeds make other tasks."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from checkout_consent.pizza import dataset as data
from checkout_consent.pizza.authoring.tasks import PER_TEMPLATE, PUBLIC_SEED, generate
from checkout_consent.pizza.state import Task


def test_generate__public_seed_reproduces_the_committed_file_byte_for_byte() -> None:
    text = data.dumps(generate(data.templates(), PUBLIC_SEED))
    assert text.encode() == data.public_path().read_bytes()


def test_generate__is_deterministic_and_seed_dependent() -> None:
    templates = data.templates()
    again = generate(templates, 94721)
    assert data.dumps(again) == data.dumps(generate(templates, 94721))
    assert all(t.task_id.endswith("-s94721") for t in again)
    public_orders = [t.complaint.order_id for t in data.public_tasks()]
    assert [t.complaint.order_id for t in again] != public_orders


def test_generate__five_tasks_per_template_each_with_the_templates_remedy(
    tasks: list[Task],
) -> None:
    templates = data.templates()
    assert len(tasks) == PER_TEMPLATE * len(templates.templates) == 40
    assert Counter(t.template for t in tasks) == {
        name: PER_TEMPLATE for name in templates.templates
    }
    for task in tasks:
        assert task.expected.remedy == templates.templates[task.template].remedy
    assert len({t.task_id for t in tasks}) == 40


def test_generate__tasks_are_well_formed(tasks: list[Task]) -> None:
    for task in tasks:
        complaint = task.complaint
        assert task.orders[0].order_id == complaint.order_id
        assert len({o.order_id for o in task.orders}) == len(task.orders)
        assert complaint.order_id in complaint.text_with_id
        assert (complaint.order_id in complaint.text) == complaint.gives_id
        assert all(ln.unit_cents > 0 and ln.qty > 0 for o in task.orders for ln in o.lines)
    assert any(not t.complaint.gives_id for t in tasks)
    assert any(t.complaint.script.accepts for t in tasks)
    assert any(not t.complaint.script.accepts for t in tasks)


def test_write_split__hidden_goes_to_the_ignored_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "templates.yaml").write_bytes((data.data_dir() / "templates.yaml").read_bytes())
    monkeypatch.setattr(data, "data_dir", lambda: tmp_path)
    path = data.write_split(7, "hidden")
    assert path == tmp_path / "hidden" / "tasks-7.jsonl"
    assert [t.task_id for t in data.read_tasks(path)][0] == "wrong-topping-1-s7"
    with pytest.raises(ValueError):
        data.write_split(7, "public")


def test_hidden_folder__is_git_ignored() -> None:
    ignore = (data.data_dir().parents[1] / ".gitignore").read_text()
    assert "tasks/*/hidden/" in ignore.splitlines()
