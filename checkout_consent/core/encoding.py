"""How a consent ledger writes what AP2 v0.2 dates and signs, deterministically
(docs/consent.md): the world clock as Unix times and ISO 8601 dates from a fixed epoch,
and a checkout as an unsecured JWT whose digest is its `checkout_hash`. Pure."""

from __future__ import annotations

import base64
import hashlib
import json
import re
from collections.abc import Mapping
from typing import Any

EPOCH = (2026, 1, 1)  # world day 1, UTC (a world without days is on day 1)
DAY_SECONDS = 86_400


def _days(year: int, month: int, day: int) -> int:
    """Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant's days_from_civil:
    arithmetic only, as core reads no clock and imports no datetime)."""
    year -= month <= 2
    era, month_from_march = year // 400, (month + 9) % 12
    yoe = year - era * 400
    doy = (153 * month_from_march + 2) // 5 + day - 1
    return era * 146_097 + yoe * 365 + yoe // 4 - yoe // 100 + doy - 719_468


def _civil(days: int) -> tuple[int, int, int]:
    """`_days`'s inverse (civil_from_days)."""
    z = days + 719_468
    era = z // 146_097
    doe = z - era * 146_097
    yoe = (doe - doe // 1_460 + doe // 36_524 - doe // 146_096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    month = mp + 3 if mp < 10 else mp - 9
    return yoe + era * 400 + (month <= 2), month, doy - (153 * mp + 2) // 5 + 1


_EPOCH_DAYS = _days(*EPOCH)
_EPOCH_SECONDS = _EPOCH_DAYS * DAY_SECONDS
_ISO_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")


def date_of(day: int) -> str:
    """World day `day` as an ISO 8601 date (day 1 is the epoch, 2026-01-01)."""
    year, month, dom = _civil(_EPOCH_DAYS + day - 1)
    return f"{year:04d}-{month:02d}-{dom:02d}"


def day_of(iso: str) -> int:
    """The world day of an ISO 8601 date (`date_of`'s inverse); ValueError otherwise."""
    found = _ISO_DATE.fullmatch(iso)
    if found is None or date_of(day := _days(*map(int, found.groups())) - _EPOCH_DAYS + 1) != iso:
        raise ValueError(f"not an ISO 8601 date: {iso!r}")
    return day


def instant(call: int, day: int | None = None) -> int:
    """Trace call `call` on world day `day` as a Unix time: `call` seconds after that
    day's midnight UTC, so instants order as (day, call) do and each decodes back."""
    if not 0 <= call < DAY_SECONDS:
        raise ValueError(f"a call index is 0..{DAY_SECONDS - 1}, not {call}")
    return _EPOCH_SECONDS + (1 if day is None else day) * DAY_SECONDS - DAY_SECONDS + call


def end_of(day: int) -> int:
    """The last second of world day `day`, as a Unix time (a checkout's `exp`)."""
    return instant(0, day + 1) - 1


def day_at(unix: int) -> int:
    """The world day a Unix time falls on."""
    return (unix - _EPOCH_SECONDS) // DAY_SECONDS + 1


def call_at(unix: int) -> int:
    """The trace call an `instant` encodes."""
    return (unix - _EPOCH_SECONDS) % DAY_SECONDS


def b64url(data: bytes) -> str:
    """base64url without padding (RFC 7515 section 2)."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def canonical(value: Any) -> bytes:
    """JSON with sorted keys and no spaces: one text per value."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


_HEADER = b64url(canonical({"alg": "none", "typ": "JWT"}))


def unsecured_jwt(payload: Mapping[str, Any]) -> str:
    """`payload` as an unsecured JWT (RFC 7519 section 6): AP2's `checkout_jwt`, unsigned."""
    return f"{_HEADER}.{b64url(canonical(dict(payload)))}."


def digest(text: str) -> str:
    """base64url SHA-256 of `text` (AP2's `checkout_hash` of a `checkout_jwt`)."""
    return b64url(hashlib.sha256(text.encode("utf-8")).digest())
