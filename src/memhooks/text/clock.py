"""UTC timestamps as the tree writes them.

`iso()` and `epoch()` avoid `datetime` (~1 ms to import), because every Stop and
SessionEnd hook stamps and compares times; the commands use `utc_now` and `parse_iso`.
"""

from __future__ import annotations

import re
import time

from memhooks import TYPE_CHECKING

if TYPE_CHECKING:
    import datetime as dt

ISO_FORMAT = "%Y-%m-%dT%H:%M:%SZ"
_ISO = re.compile(
    r"(\d{4})-(\d\d)-(\d\d)(?:[T ](\d\d):(\d\d)(?::(\d\d)(?:\.\d+)?)?)?"
    r"(Z|[+-]\d\d:?\d\d)?$"
)


def utc_now() -> dt.datetime:
    import datetime as dt

    return dt.datetime.now(dt.timezone.utc)


def iso(moment: dt.datetime | None = None) -> str:
    if moment is None:
        # time.time(), not gmtime()'s own time(NULL): that coarse clock can still read the
        # previous second just after datetime.now() read the next.
        return time.strftime(ISO_FORMAT, time.gmtime(time.time()))
    return moment.strftime(ISO_FORMAT)


def stamp(seconds: float) -> str:
    """`iso()` of a `time.time()` value."""
    return time.strftime(ISO_FORMAT, time.gmtime(seconds))


def parse_iso(text: str) -> dt.datetime | None:
    """Lenient: a date, a datetime with Z or an offset; None when it is neither."""
    import datetime as dt

    if not text:
        return None
    value = text.strip().replace("Z", "+00:00")
    try:
        moment = dt.datetime.fromisoformat(value)
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=dt.timezone.utc)
    return moment


def _days_from_civil(year: int, month: int, day: int) -> int:
    """Days since 1970-01-01 in the proleptic Gregorian calendar (H. Hinnant's algorithm)."""
    year -= month <= 2  # noqa: PLR2004 - January and February count with the previous year
    era = (year if year >= 0 else year - 399) // 400
    year_of_era = year - era * 400
    day_of_year = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1  # noqa: PLR2004
    day_of_era = year_of_era * 365 + year_of_era // 4 - year_of_era // 100 + day_of_year
    return era * 146097 + day_of_era - 719468


def epoch(text: str) -> float | None:
    """Seconds since the epoch of an ISO date or time as the tree writes it; None if not one."""
    match = _ISO.match(text.strip()) if text else None
    if match is None:
        return None
    year, month, day, hour, minute, second, zone = match.groups()
    if not (1 <= int(month) <= 12 and 1 <= int(day) <= 31):  # noqa: PLR2004
        return None
    seconds = (
        _days_from_civil(int(year), int(month), int(day)) * 86400
        + int(hour or 0) * 3600
        + int(minute or 0) * 60
        + int(second or 0)
    )
    if zone and zone != "Z":
        sign = -1 if zone[0] == "+" else 1
        digits = zone[1:].replace(":", "")
        seconds += sign * (int(digits[:2]) * 3600 + int(digits[2:]) * 60)
    return float(seconds)
