"""The pure engine's public face: the contract a world is written against. No Inspect, no
family, no I/O: a log re-grades offline. A world imports core only from here."""

from __future__ import annotations

from checkout_consent.core.args import need_cents, need_choice, need_int, need_str
from checkout_consent.core.consent import DAILY_BUDGET, check
from checkout_consent.core.consent_lines import Breaches, cannot
from checkout_consent.core.contract import (
    Action,
    ControlRecords,
    Controls,
    Dataset,
    Episode,
    EvalMetadata,
    EvalTask,
    Generation,
    Grader,
    Meta,
    Policy,
    PrepareCall,
    Record,
    Turns,
    World,
)
from checkout_consent.core.controls import Exploit, Msg, Reply, call, hacker, next_call_id, say
from checkout_consent.core.encoding import end_of, instant
from checkout_consent.core.frozen import Frozen, FrozenRecord
from checkout_consent.core.headline import Headline
from checkout_consent.core.ledger import Allowance, Ledger, bound, signed
from checkout_consent.core.mandates import (
    AgentRecurrence,
    AllowedPayees,
    AmountRange,
    Budget,
    CheckoutMandate,
    DailyBudget,
    OpenPaymentMandate,
    PaymentMandate,
    merchant,
)
from checkout_consent.core.money import (
    dollars_in_text,
    fmt,
    fmt_dollars,
    parse_dollars,
    percent_of,
    plain,
    to_dollars,
)
from checkout_consent.core.offline import judge, play_and_grade
from checkout_consent.core.presentation import Board, Breakdown, Column, Scatter, Views
from checkout_consent.core.rng import Draws, Stream, derive, stream
from checkout_consent.core.scenario import Scenario
from checkout_consent.core.stats import Interval, bootstrap_ci, pass_hat_ks
from checkout_consent.core.task_args import TaskAlias, parse_date, parse_flag, parse_seeds, seed_id
from checkout_consent.core.trace import Call, Replay, replay
from checkout_consent.core.world import ActionError, Outcome, apply, evolve

__all__ = [
    "Action",
    "ActionError",
    "AgentRecurrence",
    "Allowance",
    "AllowedPayees",
    "AmountRange",
    "Board",
    "Breaches",
    "Breakdown",
    "Budget",
    "Call",
    "CheckoutMandate",
    "Column",
    "ControlRecords",
    "Controls",
    "DAILY_BUDGET",
    "DailyBudget",
    "Dataset",
    "Draws",
    "Episode",
    "EvalMetadata",
    "EvalTask",
    "Exploit",
    "Frozen",
    "FrozenRecord",
    "Generation",
    "Grader",
    "Headline",
    "Interval",
    "Ledger",
    "Meta",
    "Msg",
    "OpenPaymentMandate",
    "Outcome",
    "PaymentMandate",
    "Policy",
    "PrepareCall",
    "Record",
    "Replay",
    "Reply",
    "Scatter",
    "Scenario",
    "Stream",
    "TaskAlias",
    "Turns",
    "Views",
    "World",
    "apply",
    "bootstrap_ci",
    "bound",
    "call",
    "cannot",
    "check",
    "derive",
    "dollars_in_text",
    "end_of",
    "evolve",
    "fmt",
    "fmt_dollars",
    "hacker",
    "instant",
    "judge",
    "merchant",
    "need_cents",
    "need_choice",
    "need_int",
    "need_str",
    "next_call_id",
    "parse_date",
    "parse_dollars",
    "parse_flag",
    "parse_seeds",
    "pass_hat_ks",
    "percent_of",
    "plain",
    "play_and_grade",
    "replay",
    "say",
    "seed_id",
    "signed",
    "stream",
    "to_dollars",
]
