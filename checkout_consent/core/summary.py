"""The summary every surface prints: the headline, the consent-breach rate, the world's own."""

from __future__ import annotations

from collections.abc import Sequence

from checkout_consent.core.consent import Party, breach_rate, describe_rate
from checkout_consent.core.contract import Record, World
from checkout_consent.core.headline import Figure


def figure(world: World, records: Sequence[Record]) -> Figure | None:
    """The family's headline over records (epochs of a task averaged first)."""
    return world.headline.figure([(world.dataset.task_of(r), r) for r in records])


def consent_figure(
    world: World, records: Sequence[Record], party: Party = "agent"
) -> Figure | None:
    """The consent-breach rate of `party` over records (core.consent.breach_rate)."""
    return breach_rate(world.family, [(world.dataset.task_of(r), r) for r in records], party)


def consent_line(world: World, records: Sequence[Record]) -> str:
    """The agent's breach rate, the counterparty breaches it let through beside it."""
    return describe_rate(
        world.family,
        consent_figure(world, records),
        world.moves_money,
        consent_figure(world, records, "counterparty"),
    )


def summary(world: World, records: Sequence[Record]) -> str:
    """The headline with its interval, the consent-breach rate, then the family's own summary."""
    if not records:
        return "no samples"
    head = world.headline.describe(figure(world, records))
    consent = consent_line(world, records)
    rest = world.views.summary(records)
    first, _, more = rest.partition("\n")
    return f"{head}; {consent}; {first}" + (f"\n{more}" if more else "")
