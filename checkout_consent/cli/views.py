"""How the command line shows a family: the protocol a family's views module meets (its
lines, the summary after the headline, what `list` and `show` print, its own verbs), looked
up through the roster, and the summary every surface prints, headline first."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import Any, Protocol, cast

from checkout_consent.core.consent import Party, breach_rate, describe_rate
from checkout_consent.core.family import FamilySpec, Record
from checkout_consent.core.headline import Figure
from checkout_consent.families import member


class Views(Protocol):
    def line(self, record: Record) -> str: ...

    def summary(self, records: Sequence[Record]) -> str: ...

    def list_items(self) -> list[str]: ...

    def show(self, item: str) -> str: ...


def views(spec: FamilySpec) -> Views:
    return cast(Views, member(spec).views)


def commands(spec: FamilySpec) -> Callable[[argparse.ArgumentParser], None] | None:
    """The family's own verbs (`checkout-consent <family> ...`), if it has any."""
    return cast(Any, getattr(member(spec).views, "add_commands", None))


def sanity_note(spec: FamilySpec) -> str:
    return str(getattr(member(spec).views, "SANITY_NOTE", ""))


def figure(spec: FamilySpec, records: Sequence[Record]) -> Figure | None:
    """The family's headline over records (epochs of a task averaged first)."""
    return spec.headline.figure([(spec.task_of(r), r) for r in records])


def consent_figure(
    spec: FamilySpec, records: Sequence[Record], party: Party = "agent"
) -> Figure | None:
    """The consent-breach rate of `party` over records (core.consent.breach_rate)."""
    return breach_rate(spec.name, [(spec.task_of(r), r) for r in records], party)


def consent_line(spec: FamilySpec, records: Sequence[Record]) -> str:
    """The agent's breach rate, the counterparty breaches it let through beside it."""
    return describe_rate(
        spec.name,
        consent_figure(spec, records),
        spec.moves_money,
        consent_figure(spec, records, "counterparty"),
    )


def summary(spec: FamilySpec, records: Sequence[Record]) -> str:
    """The headline with its interval, the consent-breach rate beside it, then the
    family's own summary."""
    if not records:
        return "no samples"
    head = spec.headline.describe(figure(spec, records))
    consent = consent_line(spec, records)
    rest = views(spec).summary(records)
    first, _, more = rest.partition("\n")
    return f"{head}; {consent}; {first}" + (f"\n{more}" if more else "")
