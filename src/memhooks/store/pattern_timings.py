"""Which `redact.extra_patterns` are fast enough to run, measured once per pattern and kept in
`paths.patterns`, machine-local ({pattern: seconds on the probe, or "slow"}). Standard library
only (every hook calls `usable` when the config has patterns).

config.json is committed, so a cloned repository chooses the patterns; one that is slow on
ordinary text would cost every prompt its deadline and leave PreCompact without a checkpoint. So
each pattern is timed on a fixed probe text the first time it is seen (`probe_seconds`), the
verdict is kept, and a slow one is dropped: it no longer redacts, and the log, `status` and
`doctor` say so. A pattern that runs past its deadline on a real text is marked slow too.
"""

from __future__ import annotations

import json

from memhooks.store.files import read_text, write_atomic
from memhooks.store.problem_log import log_line

VERDICTS_CAP = 200_000


SLOW = "slow"


def _load(target: str) -> dict[str, object]:
    try:
        data = json.loads(read_text(target, VERDICTS_CAP) or "{}")
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _save(target: str, verdicts: dict[str, object]) -> None:
    try:  # best effort: a read-only tree measures again next time
        write_atomic(target, json.dumps(verdicts), durable=False)
    except OSError:
        return


def is_slow(verdict: object) -> bool:
    from memhooks.text import redact_custom

    return verdict == SLOW or (
        isinstance(verdict, int | float) and verdict > redact_custom.PROBE_SECONDS
    )


def usable_patterns(
    target: str, patterns: tuple[str, ...], log: str | None = None
) -> tuple[tuple[str, ...], list[str]]:
    """(`patterns` without the slow ones, a line for each slow one). A pattern seen for the
    first time is timed now, and `log` told if it is dropped; one the shape check refuses is
    left to it (it never runs)."""
    from memhooks.text import redact_custom

    accepted = {c.pattern for c in redact_custom.compile_patterns(patterns)}
    if not accepted:
        return patterns, []
    verdicts = _load(target)
    changed = False
    kept: list[str] = []
    lines: list[str] = []
    for number, pattern in enumerate(patterns):
        verdict = verdicts.get(pattern)
        if pattern in accepted and not (verdict == SLOW or isinstance(verdict, int | float)):
            seconds = redact_custom.probe_seconds(pattern)
            verdict = verdicts[pattern] = SLOW if seconds is None else round(seconds, 4)
            changed = True
            if log is not None and is_slow(verdict):
                log_line(log, f"config.json {dropped_line(number, verdict)}")
        if pattern in accepted and is_slow(verdict):
            redact_custom.drop(pattern)
            lines.append(dropped_line(number, verdict))
            continue
        kept.append(pattern)
    if changed:
        _save(target, verdicts)
    return tuple(kept), lines


def dropped_line(number: int, verdict: object) -> str:
    from memhooks.text import redact_custom

    took = (
        f"took {verdict * 1000:,.0f} ms on the probe text"
        if isinstance(verdict, int | float)
        else "ran past its deadline"
    )
    return (
        f"redact.extra_patterns[{number}]: dropped, too slow ({took}; the budget is "
        f"{redact_custom.PROBE_SECONDS * 1000:.0f} ms): it redacts nothing until it is fixed "
        "in config.json"
    )


def mark_slow(target: str, pattern: str) -> None:
    """`pattern` ran past its deadline on a real text: keep it out of the next runs too."""
    if not pattern:
        return
    verdicts = _load(target)
    verdicts[pattern] = SLOW
    _save(target, verdicts)
