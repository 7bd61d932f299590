"""A family's headline: the one number every surface reports and ranks by, defined once."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

from checkout_consent.core.money import fmt_dollars, to_the_cent
from checkout_consent.core.stats import Interval, bootstrap_ci

Record = Mapping[str, Any]
Run = tuple[str, Record]  # (task id, record)
Statistic = Literal["mean", "median", "rate"]
Unit = Literal["$", "%", ""]
# How a metric's name says its unit in Inspect's panels (`median_$`, `mean_%`, `mean`)
UNIT_SUFFIX: dict[str, str] = {"$": "_$", "%": "_%", "": ""}


class Figure(NamedTuple):
    """A headline over a set of runs: the value, its 95% interval, tasks and runs."""

    value: float
    low: float
    high: float
    tasks: int
    runs: int


@dataclass(frozen=True)
class Headline:
    """What a family's score means: `key`, a record's number (a bool for a `rate`, the share
    of tasks holding it); `statistic` over tasks; `unit`, `$` (dollars), `%` (a 0-1
    fraction) or `` (`places` decimals); the direction; one run's pass rule (for pass^k)."""

    key: str
    statistic: Statistic
    unit: Unit
    family: str  # names the bootstrap's random stream (core.stats), so intervals are stable
    higher_is_better: bool = True
    places: int = 3
    passed: Callable[[Record], bool] | None = None
    passed_means: str = ""
    ci: Literal["bootstrap"] = "bootstrap"

    @property
    def name(self) -> str:
        """The metric's name in Inspect and the API: `cash_final_median`, `score_mean`."""
        return f"{self.key}_{self.statistic}"

    @property
    def label(self) -> str:
        """How a heading reads: `median cash_final`."""
        return f"{self.statistic} {self.key}"

    def metric_names(self, stat: str = "") -> tuple[str, str, str]:
        """The names Inspect shows the figure under, each saying its unit (`median_$`, `mean_%`)."""
        unit = UNIT_SUFFIX[self.unit]
        if stat:
            return (f"{stat}{unit}", f"{stat}_lo{unit}", f"{stat}_hi{unit}")
        return (f"{self.statistic}{unit}", f"ci_lo{unit}", f"ci_hi{unit}")

    def metric_value(self, x: float) -> float:
        """A value in the unit its metric name says (cents, 0.1%, or `places` decimals)."""
        if self.unit == "$":
            return to_the_cent(x)
        if self.unit == "%":
            return round(x * 100, 1)
        return round(x, self.places)

    def metrics(self, figure: Figure | None, stat: str = "") -> dict[str, float | None]:
        """The figure as Inspect metrics (None: no runs), `n_tasks` unless `stat` is a companion."""
        value, low, high = self.metric_names(stat)
        if figure is None:
            return {value: None} if stat else {value: None, "n_tasks": 0}
        got: dict[str, float | None] = {
            value: self.metric_value(figure.value),
            low: self.metric_value(figure.low),
            high: self.metric_value(figure.high),
        }
        return got if stat else got | {"n_tasks": figure.tasks}

    def value(self, record: Record) -> float:
        """One run's number: the record's `key` (a bool as 0 or 1). A value that is not
        a finite number is a ValueError naming the key: nothing ranks on a NaN."""
        got = record.get(self.key)
        if isinstance(got, bool):
            return float(got)
        if not isinstance(got, int | float) or not math.isfinite(got):
            raise ValueError(f"record has no finite number {self.key!r}: {got!r}"[:200])
        return float(got)

    def task_values(self, runs: Iterable[Run]) -> list[float]:
        """Each task's mean over its runs (epochs), in first-seen task order."""
        by_task: dict[str, list[float]] = {}
        for task, record in runs:
            by_task.setdefault(task, []).append(self.value(record))
        return [sum(v) / len(v) for v in by_task.values()]

    def figure(self, runs: Sequence[Run]) -> Figure | None:
        """The headline over `runs` with its interval; None when there are none."""
        values = self.task_values(runs)
        if not values:
            return None
        stat = "median" if self.statistic == "median" else "mean"
        ci: Interval = bootstrap_ci(values, family=self.family, statistic=stat)
        return Figure(ci.mean, ci.low, ci.high, ci.n, len(runs))

    def show(self, x: float) -> str:
        """A value as people read it: `$2,002.70`, `61.0%`, `0.139`."""
        if self.unit == "$":
            return fmt_dollars(x)
        if self.unit == "%":
            return f"{x:.1%}"
        return f"{x:.{self.places}f}"

    def describe(self, figure: Figure | None) -> str:
        """One line: the figure with its interval and counts."""
        if figure is None:
            return f"{self.label} n/a (no runs)"
        return (
            f"{self.label} {self.show(figure.value)} (bootstrap 95% CI over tasks "
            f"{self.show(figure.low)} to {self.show(figure.high)}, n={figure.tasks} "
            f"tasks, {figure.runs} samples)"
        )

    def rank(self, figures: Mapping[str, Figure | None]) -> list[str]:
        """Names best first by value (ties and no-run names after, by name)."""
        sign = -1.0 if self.higher_is_better else 1.0

        def order(name: str) -> tuple[int, float, str]:
            got = figures[name]
            return (1, 0.0, name) if got is None else (0, sign * got.value, name)

        return sorted(figures, key=order)
