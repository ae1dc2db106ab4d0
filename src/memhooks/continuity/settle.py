"""Which earlier failures a run settles. Pure, stdlib only.

A pass closes the failures it covers (`checks.covers`; each check of a passing `&&` chain
too); a failed `&&` chain, any of whose commands may be the one that failed, closes once
each of its commands that checks something has passed in some later run (`checks.open_parts`
keeps those not proven yet in its entry); a wider run that failed only on other tests
refreshes an earlier failure.
"""

from __future__ import annotations

import functools
import re

from memhooks import TYPE_CHECKING
from memhooks.continuity import run_options
from memhooks.continuity.checks import TESTS_RAN, covers, proven_by_passing, target
from memhooks.continuity.excerpt import error_lines
from memhooks.text.lazy_re import LazyPattern

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from typing import Any

#: A run cut short: a collection or compile error, an interruption.
_ABORTED = LazyPattern(
    r"Interrupted|errors? during collection|could not compile|error\[E\d+\]|"
    r"COMPILATION ERROR|no tests ran",
    re.IGNORECASE,
)
_NAMED_FAILURE = LazyPattern(
    r"^\s*(?:FAILED|FAIL:?|ERROR|--- FAIL:)\s+\S|\.\.\.\s+FAILED\b|<<< FAIL"
)


def _name(word: str) -> str:
    """What a failure list calls the test `word` selects: `test_merge` for
    `tests/test_m.py::test_merge`, `test_m` for `tests/test_m.py`, `X` for `-Dtest=X`."""
    word = word.rsplit("=", 1)[-1].strip("/")
    if "::" in word:
        return word.rsplit("::", 1)[-1]
    base = word.rsplit("/", 1)[-1]
    return base.split(".", 1)[0] if not base.startswith(".") else base


def still_named(run: tuple[str, frozenset[str]], other: dict[str, Any], output: str) -> bool:
    """Whether a failed wider `run` (one that `covers` `other`'s target) may still fail on
    `other`'s test: unless its output lists its failures, it runs them all (no `-x`), and
    none of those lines names `other`'s own words (its test, file or `-k` expression)."""
    if any(run_options.stops_early(w) for w in run[1]):
        return True
    if not TESTS_RAN.compiled.search(output) or _ABORTED.compiled.search(output):
        return True  # no count of tests run, or a run cut short: its list proves nothing
    lines = [line for line in output.splitlines() if line.strip()]
    named = [line for line in lines if _NAMED_FAILURE.compiled.search(line)]
    if not named:
        return True
    args = [str(word) for word in other.get("args") or ()]
    names = {_name(w) for w in args if not w.startswith("-") or "=" in w} - {""}
    said = " ".join(lines[i] for i in error_lines(lines)) + " " + " ".join(named)
    return not names or any(name in said for name in names)


@functools.lru_cache(maxsize=64)
def _part_target(part: str) -> tuple[str, frozenset[str]] | None:
    return target(part)


def _parts_proven(entry: dict[str, Any], proven: Sequence[tuple[str, frozenset[str]]]) -> bool:
    """Whether the passes in `proven` leave none of a failing chain's parts unproven: those
    they cover are dropped from its `open` (`part_passed` then says some passed since)."""
    left = [
        part
        for part in entry["open"]
        if (found := _part_target(part)) is None or not any(covers(run, found) for run in proven)
    ]
    if len(left) < len(entry["open"]):
        entry["open"] = left
        entry["part_passed"] = True
    return not left


def settled(
    entries: Iterable[dict[str, Any]], command: str, *, ok: bool, output: str
) -> list[dict[str, Any]]:
    """The failing entries (the evidence's last outcome of each target) that a run of
    `command` settles: a pass closes those it covers (each check of a `&&` chain too), and
    a failed `&&` chain once each of its checks passed in some later run (`open_parts`); a
    wider run that failed only on other tests refreshes them (marked `refreshed`)."""
    found = target(command)
    proven = proven_by_passing(command) if ok else []
    out = []
    for other in [entry for entry in entries if not entry["ok"]]:
        covered = (other["runner"], frozenset(other["args"]))
        if any(covers(run, covered) for run in proven) or (
            proven and other.get("open") and _parts_proven(other, proven)
        ):
            out.append(other)
        elif (
            not ok
            and found is not None
            and found != covered
            and covers(found, covered)
            and not still_named(found, other, output)
        ):
            other["refreshed"] = True
            out.append(other)
    return out
