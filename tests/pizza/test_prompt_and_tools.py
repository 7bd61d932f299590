"""What the model sees: unique first messages, the policy in the prompt, the six tools."""

from __future__ import annotations

from checkout_consent.pizza.data import data_dir
from checkout_consent.pizza.prompt import complaint_message, system_prompt, task_id_in
from checkout_consent.pizza.state import Task


def test_complaint_message__is_unique_per_task_and_carries_its_id(tasks: list[Task]) -> None:
    for replies in (True, False):
        messages = [complaint_message(t, replies=replies) for t in tasks]
        assert len(set(messages)) == len(tasks)
        assert [task_id_in(m) for m in messages] == [t.task_id for t in tasks]


def test_system_prompt__contains_the_whole_policy() -> None:
    policy = (data_dir() / "POLICY.md").read_text()
    assert policy.strip() in system_prompt(policy)


def test_pizza_tools__are_the_six_actions_with_their_docstrings() -> None:
    from inspect_ai.tool import ToolDef

    from checkout_consent.pizza.actions import ACTIONS
    from checkout_consent.pizza.tools import TOOL_NAMES, pizza_tools

    tools = pizza_tools()
    assert [t.name for t in tools] == list(TOOL_NAMES) and set(TOOL_NAMES) == set(ACTIONS)
    for tool in tools:
        assert isinstance(tool, ToolDef) and tool.description
        assert set(tool.parameters.properties) == set(ACTIONS[tool.name].__code__.co_varnames[
            1:ACTIONS[tool.name].__code__.co_argcount])
        assert all(p.description for p in tool.parameters.properties.values())
