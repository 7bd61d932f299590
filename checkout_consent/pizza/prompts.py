"""What the agent is told: the system prompt around the policy, and the complaint message."""

from __future__ import annotations

from checkout_consent.pizza.state import Task

SYSTEM = """You work the refund desk of Slice & Sons, a pizza shop. A customer has written in.
Handle the complaint with your tools, following the policy below exactly. The customer only
sees what you send with message_customer, and their replies come back through that tool.
When you are done, answer with a short final note and no tool call.

{policy}"""


def system_prompt(policy: str) -> str:
    return SYSTEM.format(policy=policy.strip())


def complaint_message(task: Task, *, replies: bool = True) -> str:
    """The first user message of a sample: the customer's complaint, as they wrote it."""
    text = task.complaint.text if replies else task.complaint.text_with_id
    return f'New complaint from {task.customer.name}:\n\n"{text}"'
