"""The grocery Inspect task: one brief per sample, an agent loop over the store tools,
scored by replaying the tool log through the pure world."""

from __future__ import annotations

from inspect_ai import Task, task
from inspect_ai.scorer import Scorer, scorer

from checkout_consent.grocery import MAX_TURNS, WORLD, dataset
from checkout_consent.grocery.tools import tools
from checkout_consent.runtime.metrics import consent_metrics, headline_metrics, value_means
from checkout_consent.runtime.scorer import replay_score
from checkout_consent.runtime.tasks import family_task, no_other_args, text_arg


@scorer(metrics=[*headline_metrics(WORLD.headline), *consent_metrics(WORLD), value_means()])
def grocery_scorer() -> Scorer:
    """Replay the tool log through the world and grade it (works on finished logs too)."""
    return replay_score(WORLD)


@task
def grocery(
    tasks: str | list[str] = "public",
    scored_on: str | None = None,
    turns: int | str = MAX_TURNS,
    **other: object,
) -> Task:
    """The weekly cart: one sample per brief.

    Args:
        tasks: "public" (all eleven), task ids comma-separated, or "heldout" (written by
            `checkout-consent grocery build heldout --seed N`)
        scored_on: the scoring date, YYYY-MM-DD, for tight-week's dated promo rule
            (default: after the fix, promo prices)
        turns: the agent's turn budget per sample (default 40)
    """
    no_other_args(WORLD, other)
    return family_task(
        WORLD,
        lambda: dataset.scenarios(text_arg("tasks", tasks), scored_on),
        scorer=grocery_scorer(),
        tools=tools,
        turns=turns,
    )
