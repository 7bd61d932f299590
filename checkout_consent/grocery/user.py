"""The scripted household: answers a question from the brief's answers, deterministically."""

from __future__ import annotations

from checkout_consent.grocery.brief import Brief

DEFAULT_ANSWER = "Nothing to add: please follow the list in the brief."


def answer(brief: Brief, question: str) -> str:
    """The first scripted answer one of whose keywords the question contains."""
    lowered = question.lower()
    for entry in brief.answers:
        if any(word in lowered for word in entry.keywords):
            return entry.answer
    return DEFAULT_ANSWER
