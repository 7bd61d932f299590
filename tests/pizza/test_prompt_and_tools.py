"""What the model sees: the complaint alone (no task tag), the policy in the prompt, the six
tools."""

from __future__ import annotations

from checkout_consent.pizza import WORLD
from checkout_consent.pizza.dataset import data_dir, scenario_of
from checkout_consent.pizza.prompts import complaint_message, system_prompt
from checkout_consent.pizza.state import Task


def test_opening__is_the_complaint_with_nothing_a_control_could_parse(tasks: list[Task]) -> None:
    for replies in (True, False):
        for task in tasks:
            text = task.complaint.text if replies else task.complaint.text_with_id
            opening = WORLD.episode.opening(scenario_of(task, replies=replies))
            assert opening == complaint_message(task, replies=replies)
            assert opening == f'New complaint from {task.customer.name}:\n\n"{text}"'
            assert task.task_id not in opening and task.template not in opening
        messages = {complaint_message(t, replies=replies) for t in tasks}
        assert len(messages) == len(tasks)


def test_system_prompt__contains_the_whole_policy(tasks: list[Task]) -> None:
    policy = (data_dir() / "POLICY.md").read_text()
    assert policy.strip() in system_prompt(policy)
    assert WORLD.episode.system(scenario_of(tasks[0])) == system_prompt(policy)


def test_episode__one_phase_of_16_turns_ended_by_a_reply_without_calls() -> None:
    episode = WORLD.episode
    assert episode.turns == 16 and episode.close_tool is None
    assert episode.stop_tools == () and episode.nudge is None


def test_pizza_tools__are_the_six_actions_with_their_docstrings() -> None:
    from inspect_ai.tool import ToolDef

    from checkout_consent.pizza.actions import ACTIONS
    from checkout_consent.pizza.tools import TOOL_NAMES, tools

    defs = tools()
    assert [t.name for t in defs] == list(TOOL_NAMES) and set(TOOL_NAMES) == set(ACTIONS)
    for tool in defs:
        assert isinstance(tool, ToolDef) and tool.description
        assert set(tool.parameters.properties) == set(
            ACTIONS[tool.name].__code__.co_varnames[1 : ACTIONS[tool.name].__code__.co_argcount]
        )
        assert all(p.description for p in tool.parameters.properties.values())
