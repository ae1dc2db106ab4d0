# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""Statements in prose: decisions, blockers, and the telling line of a failed command.

Pure, stdlib only.
"""

from __future__ import annotations

import re

from memhooks.text import clip
from memhooks.text.lazy_re import LazyPattern

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: importing typing costs the hooks ms
if TYPE_CHECKING:
    from collections.abc import Callable

# Compiled on first use: only a text that `mentions` a decision or a blocker needs them.
_SENTENCE_END = LazyPattern(r"(?<=[.!?])\s+(?=[A-Z\"'(\[`*])")
_DECISION_MARKER = LazyPattern(
    r"^\W*(?:decision|decided)\W*:\s*|(?<![A-Za-z])(?-i:Decision)\W*:\s*", re.IGNORECASE
)
_DECISION_PHRASE = LazyPattern(
    r"\b(?:we(?:'ve| have)? decided|I(?:'ve| have)? decided|(?:I|we)(?:'ll| will) go with"
    r"|let's go with|we're going with|I'm going with)\b",
    re.IGNORECASE,
)
_BLOCKER_MARKER = LazyPattern(r"^\W*(?:blocker|blocked)\W*:\s*", re.IGNORECASE)
_USER_BLOCKED = LazyPattern(r"\bblocked (?:on|by)\b", re.IGNORECASE)
_SELF_BLOCKED = LazyPattern(
    r"\b(?:I'm|I am|we're|we are|still|currently)\s+blocked\b(?:\s+(?:on|by))?", re.IGNORECASE
)
_EXIT_CODE = LazyPattern(r"^Exit code (\d+)$")
_EXCEPTION_LINE = LazyPattern(r"^[\w.]*(?:Error|Exception|Exit)\b[^:]{0,40}:")
_ERROR_WORDS = LazyPattern(
    r"\b(?:error|fail(?:ed|ure|s)?|fatal|not found|no such|denied|cannot|can't|unable"
    r"|invalid|refused|panic|abort(?:ed)?)\b",
    re.IGNORECASE,
)
_ERROR_LINE_LIMIT = 240
FACT_WORDS = ("decision", "decided", "go with", "going with", "blocke")


def _strip_emphasis(text: str) -> str:
    return text.strip().strip("*_").strip()


def mentions(text: str, words: tuple[str, ...]) -> bool:
    # A cheap test before the per-line regexes, which dominate on long sessions.
    lowered = text.lower()
    return any(word in lowered for word in words)


def find_decisions(text: str) -> list[str]:
    """``Decision: …`` lines (the text after the marker) and sentences like "we decided …"."""
    if not mentions(text, ("decision", "decided", "go with", "going with")):
        return []
    return _labelled_or_said(text, _DECISION_MARKER, _DECISION_PHRASE, _strip_emphasis)


def find_blockers(text: str, *, from_user: bool) -> list[str]:
    """``Blocker: …`` lines, and sentences saying that work is blocked.

    A user's "blocked on/by" always counts. The assistant's only in the first person or
    with "still"/"currently": it also says "marked as blocked on X" when it merely
    records the user's blocker in a todo.
    """
    if not mentions(text, ("blocke",)):
        return []
    pattern = _USER_BLOCKED if from_user else _SELF_BLOCKED
    return _labelled_or_said(text, _BLOCKER_MARKER, pattern, str.strip)


def _labelled_or_said(
    text: str, label: LazyPattern, phrase: LazyPattern, tidy: Callable[[str], str]
) -> list[str]:
    """What a line labelled ``label`` says after its label (emphasis stripped), and, on the
    other lines, each sentence in which ``phrase`` occurs (``tidy``-ed)."""
    found: list[str] = []
    for line in text.splitlines():
        marker = label.search(line)
        if marker is not None:
            rest = _strip_emphasis(line[marker.end() :])
            if rest:
                found.append(rest)
            continue
        found.extend(
            tidy(sentence)
            for sentence in _SENTENCE_END.compiled.split(line)
            if phrase.search(sentence)
        )
    return found


def first_error_line(output: str) -> tuple[str, int | None]:
    """The line of a failed command's output that says what went wrong, and the exit code.

    Preference: a TAP ``not ok`` line, then the last exception line (``FooError: …``,
    the one a traceback ends with), then the first line with an error word, then the
    first line. A line ending in ``:`` takes the next line along.
    """
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    exit_code = None
    if lines and (code := _EXIT_CODE.match(lines[0])):
        exit_code = int(code.group(1))
        lines = lines[1:]
    if not lines:
        return "", exit_code
    index = next((i for i, line in enumerate(lines) if line.startswith("not ok ")), None)
    if index is None:
        matches = [i for i, line in enumerate(lines) if _EXCEPTION_LINE.match(line)]
        index = matches[-1] if matches else None
    if index is None:
        index = next((i for i, line in enumerate(lines) if _ERROR_WORDS.search(line)), 0)
    line = lines[index]
    if line.endswith(":") and index + 1 < len(lines):
        line = f"{line} {lines[index + 1]}"
    return clip(line, _ERROR_LINE_LIMIT), exit_code
