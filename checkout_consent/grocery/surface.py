"""The grocery family as the CLI sees it, for SPEC. The printing is machinery and lives in
the harness: lines, the summary, `list` and `show` in bench/views.py; the control ladder's
sanity check in bench/sanity.py."""

from __future__ import annotations

from checkout_consent.grocery.bench.sanity import SANITY_CONTROLS, check_sanity
from checkout_consent.grocery.bench.views import line, list_items, show, summary

__all__ = ["SANITY_CONTROLS", "check_sanity", "line", "list_items", "show", "summary"]
