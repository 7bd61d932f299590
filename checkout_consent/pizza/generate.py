"""A resolved task -> the world before the agent acts (pure). The tasks themselves are
authored from templates by `authoring/tasks.py`, the family's only source of randomness."""

from __future__ import annotations

from checkout_consent.pizza.state import State, Task


def initial_state(task: Task, *, replies: bool = True) -> State:
    """The world before the agent acts. Without replies the complaint always names the id."""
    return State(task=task, replies=replies, id_shared=task.complaint.gives_id or not replies)
