"""How a ledger writes the world clock and what AP2 signs (core.encoding): dates and Unix
times from the fixed epoch, as the calendar has them, decoding back; an unsecured JWT and
its digest."""

from __future__ import annotations

import base64
import calendar
import datetime
import hashlib
import json

import pytest

from checkout_consent.core import encoding as e


def test_date_of__is_the_calendars_date_from_the_epoch_and_decodes_back():
    epoch = datetime.date(2026, 1, 1)
    for day in range(-1_000, 60_000, 13):
        iso = (epoch + datetime.timedelta(days=day - 1)).isoformat()
        assert (e.date_of(day), e.day_of(iso)) == (iso, day)
    for bad in ("2026-02-30", "2026-1-01", "day 3", ""):
        with pytest.raises(ValueError):
            e.day_of(bad)


def test_instant__a_call_of_a_day_is_seconds_after_its_midnight_and_orders_as_day_then_call():
    midnight = calendar.timegm(datetime.date(2026, 1, 3).timetuple())
    assert e.instant(7, 3) == midnight + 7 and e.instant(7) == e.instant(7, 1)
    assert (e.day_at(e.instant(7, 3)), e.call_at(e.instant(7, 3))) == (3, 7)
    assert e.instant(86_399, 2) < e.instant(0, 3) <= e.end_of(3) < e.instant(0, 4)
    with pytest.raises(ValueError):
        e.instant(86_400, 1)


def test_unsecured_jwt__is_rfc_7519s_alg_none_and_its_digest_is_sha256_base64url():
    jwt = e.unsecured_jwt({"id": "O-1", "total": {"amount": 100, "currency": "USD"}})
    head, body, signature = jwt.split(".")
    assert base64.urlsafe_b64decode(head + "==") == b'{"alg":"none","typ":"JWT"}'
    assert signature == "" and json.loads(base64.urlsafe_b64decode(body + "=="))["id"] == "O-1"
    want = base64.urlsafe_b64encode(hashlib.sha256(jwt.encode()).digest()).rstrip(b"=")
    assert e.digest(jwt) == want.decode()
