"""Relative dates in a memory body ("yesterday", "next week", "in two sprints"), made absolute.

A memory is read weeks later: "next week" then means nothing. Each phrase is rewritten from
the memory's `created` date. Code blocks and inline code are left alone. A sprint is taken as
SPRINT_DAYS days, and the reason says so.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable

SPRINT_DAYS = 14
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
NUMBERS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
}
_COUNT = r"(\d{1,3}|" + "|".join(k for k in NUMBERS if k not in ("a", "an")) + r"|an?)"
_UNIT = r"(day|week|month|sprint)s?"
_DAY = "(" + "|".join(WEEKDAYS) + ")"

Rule = tuple["re.Pattern[str]", Callable[["re.Match[str]", dt.date], str]]


def _count(word: str) -> int:
    return int(word) if word.isdigit() else NUMBERS[word.lower()]


def _add_months(day: dt.date, months: int) -> dt.date:
    month0 = day.month - 1 + months
    year = day.year + month0 // 12
    month = month0 % 12 + 1
    return dt.date(year, month, min(day.day, 28))


def _shift(day: dt.date, count: int, unit: str) -> dt.date:
    unit = unit.lower().rstrip("s")
    if unit == "month":
        return _add_months(day, count)
    days = {"day": 1, "week": 7, "sprint": SPRINT_DAYS}[unit]
    return day + dt.timedelta(days=count * days)


def _weekday(match: re.Match[str], day: dt.date) -> str:
    which, name = match[1].lower(), match[2].lower()
    target = WEEKDAYS.index(name)
    if which == "last":
        delta = (day.weekday() - target) % 7 or 7
        found = day - dt.timedelta(days=delta)
    elif which == "next":
        delta = (target - day.weekday()) % 7 or 7
        found = day + dt.timedelta(days=delta)
    else:  # this
        found = day + dt.timedelta(days=target - day.weekday())
    return f"{name.capitalize()} {found.isoformat()}"


def _week(match: re.Match[str], day: dt.date) -> str:
    step = -7 if match[1].lower() == "last" else 7
    monday = day - dt.timedelta(days=day.weekday()) + dt.timedelta(days=step)
    return f"the week of {monday.isoformat()}"


def _month(match: re.Match[str], day: dt.date) -> str:
    when = _add_months(day, -1 if match[1].lower() == "last" else 1)
    return f"in {when.strftime('%B')} {when.year}"


def _year(match: re.Match[str], day: dt.date) -> str:
    return f"in {day.year + (-1 if match[1].lower() == 'last' else 1)}"


def _in(match: re.Match[str], day: dt.date) -> str:
    return f"by {_shift(day, _count(match[1]), match[2]).isoformat()}"


def _ago(match: re.Match[str], day: dt.date) -> str:
    return f"on {_shift(day, -_count(match[1]), match[2]).isoformat()}"


def _flags(pattern: str) -> re.Pattern[str]:
    return re.compile(r"(?<![\w-])" + pattern + r"(?![\w-])", re.IGNORECASE)


RULES: tuple[Rule, ...] = (
    (_flags(r"yesterday"), lambda _m, d: (d - dt.timedelta(days=1)).isoformat()),
    (_flags(r"tomorrow"), lambda _m, d: (d + dt.timedelta(days=1)).isoformat()),
    (_flags(r"(last|next|this) " + _DAY), _weekday),
    (_flags(r"(last|next) week"), _week),
    (_flags(r"(last|next) month"), _month),
    (_flags(r"(last|next) year"), _year),
    (_flags(r"in " + _COUNT + " " + _UNIT), _in),
    (_flags(_COUNT + " " + _UNIT + " ago"), _ago),
)
_CODE = re.compile(r"```.*?(?:```|\Z)|`[^`\n]*`", re.DOTALL)


def rewrite(body: str, created: dt.date) -> tuple[str, list[tuple[str, str]]]:
    """(the body with every relative date made absolute, [(phrase, replacement)])."""
    changes: list[tuple[str, str]] = []
    parts: list[str] = []
    last = 0
    for code in _CODE.finditer(body):
        parts.append(_prose(body[last : code.start()], created, changes))
        parts.append(code.group())
        last = code.end()
    parts.append(_prose(body[last:], created, changes))
    return "".join(parts), changes


def _prose(text: str, created: dt.date, changes: list[tuple[str, str]]) -> str:
    for pattern, absolute in RULES:

        def replace(match: re.Match[str], absolute: Callable[..., str] = absolute) -> str:
            new = absolute(match, created)
            if match.group()[0].isupper():
                new = new[0].upper() + new[1:]
            changes.append((match.group(), new))
            return new

        text = pattern.sub(replace, text)
    return text
