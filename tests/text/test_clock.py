"""`epoch` (no datetime on the hot path) agrees with datetime; `iso` and `stamp` round-trip."""

from __future__ import annotations

import datetime as dt

from hypothesis import given
from hypothesis import strategies as st

from memhooks.text.clock import epoch, iso, parse_iso, stamp, utc_now

UTC = dt.timezone.utc
#: Years of four digits: the tree writes no other (strftime pads earlier years per platform).
moments = st.datetimes(
    min_value=dt.datetime(1000, 1, 1),  # noqa: DTZ001 - naive bounds, as hypothesis wants
    max_value=dt.datetime(9999, 12, 31),  # noqa: DTZ001
    timezones=st.just(UTC),
).map(lambda m: m.replace(microsecond=0))


@given(moments)
def test_epoch_agrees_with_datetime(moment: dt.datetime) -> None:
    assert epoch(iso(moment)) == moment.timestamp()


@given(st.integers(min_value=0, max_value=253_402_300_799))
def test_stamp_and_epoch_round_trip(seconds: int) -> None:
    assert epoch(stamp(seconds)) == seconds


def test_epoch_reads_dates_and_offsets() -> None:
    assert epoch("1970-01-02") == 86_400
    assert epoch("2026-01-01T01:00:00+01:00") == epoch("2026-01-01T00:00:00Z")
    assert epoch("2026-01-01T00:00:00-02:30") == epoch("2026-01-01T02:30:00Z")


def test_epoch_refuses_what_is_not_a_date() -> None:
    for text in ("", "yesterday", "2026-13-01", "2026-00-10", "2026-01-32"):
        assert epoch(text) is None, text


def test_parse_iso_is_lenient_and_utc() -> None:
    assert parse_iso("2025-09-17") == dt.datetime(2025, 9, 17, tzinfo=UTC)
    assert parse_iso("2025-09-17T10:00:00Z") == dt.datetime(2025, 9, 17, 10, tzinfo=UTC)
    assert parse_iso("not a date") is None
    assert parse_iso("") is None


def test_iso_now_is_utc_and_second_precise() -> None:
    before = utc_now().replace(microsecond=0)
    now = parse_iso(iso())
    assert now is not None
    assert before <= now <= utc_now()
