"""How the presenting layers show a world, declared by the world itself."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

if TYPE_CHECKING:
    import argparse

Record = dict[str, Any]
# the records of one submission -> group -> (value in 0..1, a label drawn on its bar or None)
Groups = Callable[[Sequence[Record]], dict[str, tuple[float, str | None]]]


def _no_show(item: str) -> str:
    raise KeyError(f"nothing to show for {item[:60]!r}")


@dataclass(frozen=True)
class Views:
    """How the command line and the service show a world."""

    line: Callable[[Record], str] = lambda record: ""
    summary: Callable[[Sequence[Record]], str] = lambda records: ""
    list_items: Callable[[], list[str]] = list
    show: Callable[[str], str] = _no_show
    add_commands: Callable[[argparse.ArgumentParser], None] | None = None
    sanity_note: str = ""


@dataclass(frozen=True)
class Breakdown:
    """A bar chart beside the score-against-cost plot."""

    title: str
    ylabel: str
    groups: Groups
    not_applicable: str  # the legend's words for a group a submission never met


@dataclass(frozen=True)
class Column:
    """A column beside the headline: `cell` shows a submission's runs' records as text."""

    heading: str
    cell: Callable[[Sequence[Record]], str]


@dataclass(frozen=True)
class Scatter:
    """The headline (with its 95% CI) against `x` of the runs' records, one point a submission."""

    title: str
    xlabel: str
    x: Callable[[Sequence[Record]], float]


@dataclass(frozen=True)
class Board:
    """What a world adds to the leaderboard beside its headline (one table per world):
    seasons, columns (reported, never ranked), plots, an agent-card section, and controls
    whose example submissions are played without cassettes."""

    # season k -> the task ids it adds; a season's board plays every task up to it, and
    # "All time" plays season 1's. Empty: the family has one public set and one board.
    seasons: Callable[[], Mapping[int, tuple[str, ...]]] = dict
    breakdown: Breakdown | None = None
    columns: tuple[Column, ...] = ()
    scatter: Scatter | None = None
    note: str = ""  # said under the world's table (Markdown inline code allowed)
    # a section of the agent card only this family has: (YAML key, its strict model)
    card_section: tuple[str, type[BaseModel]] | None = None
    card_example: Mapping[str, Any] | None = None  # the section on the example cards
    # controls whose example submissions are played through the control provider directly,
    # with no cassette (a month's cassette costs review and test time for no new point)
    direct_examples: tuple[str, ...] = ()
