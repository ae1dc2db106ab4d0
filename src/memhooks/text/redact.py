# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""Redact secrets from text before anything is persisted. Standard library only.

Every match is replaced by a marker such as ``[REDACTED:github-token]``. Where a
secret sits behind a name (``API_KEY=…``, ``Authorization: Bearer …``, a URL's
``user:password@``), only the value is replaced, so a reader still sees what was there.

The rules, in priority order, are: token formats recognised by their prefix (``_RULES``
and ``_PREFIXED``), secrets found by their context (headers, cookies, URLs, command
lines, ``.netrc``, CSV exports), values behind secret names (``redact_pairs``, with
``redact_values`` deciding where a value ends and whether it can be a secret at all),
passwords given to the tools of ``redact_commands``' table, held by position in the files of
``redact_files`` or told in prose (``redact_prose``), and random-looking runs
(``redact_shapes``).
When two matches overlap, the earlier rule keeps its label and a later one only gets the
part no rule took yet. docs/security.md's "Redaction" section lists what is caught and what is
kept on purpose. Prefer over-redaction: a false positive costs a word, a false negative
leaks a credential into git.

``redact`` is idempotent: a marker is never redacted again.

Cut after redacting, never before (``redact_prefix``, ``cut_at_line``): half a secret no
longer matches its rule.

Speed: Python's ``re`` scans fast only for patterns that open with a plain literal, and
case-insensitive alternations cost tens of ms per MB. So each rule names the literal
where a match can start; that literal is found with ``bytes.find`` (in an ASCII-lowercased
copy when case does not matter) and the rule's full pattern is only tried at the hits.
Patterns compile on first use.
"""

from __future__ import annotations

import re

from memhooks import TYPE_CHECKING
from memhooks.text.redact_engine import MARKER_PREFIX, marker
from memhooks.text.redact_rules import RULES

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = [
    "MARKER_PREFIX",
    "cut_at_line",
    "marker",
    "redact",
    "redact_field",
    "redact_prefix",
    "redact_value",
]
_MARKER_BYTES = MARKER_PREFIX.encode()


def _unclaimed(claimed: bytearray, data: bytes, start: int, end: int) -> list[tuple[int, int]]:
    """The parts of [start, end) no earlier rule took, each holding a letter or digit."""
    pieces: list[tuple[int, int]] = []
    position = start
    while position < end:
        taken = claimed.find(1, position, end)
        stop = end if taken == -1 else taken
        if stop > position and any(byte in _ALNUM for byte in data[position:stop]):
            pieces.append((position, stop))
        if taken == -1:
            break
        free = claimed.find(0, taken, end)
        position = end if free == -1 else free
    return pieces


_ALNUM = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")


def _redact_builtin(text: str) -> str:
    data = text.encode("utf-8", "surrogatepass")
    lowered = data.lower()
    claimed = bytearray(len(data))
    # Markers from an earlier run are taken already: nothing inside one is redacted again.
    position = data.find(_MARKER_BYTES)
    while position != -1:
        end = data.find(b"]", position)
        end = len(data) if end == -1 else end + 1
        claimed[position:end] = b"\x01" * (end - position)
        position = data.find(_MARKER_BYTES, end)
    replacements: list[tuple[int, int, bytes]] = []
    for rule in RULES:
        kind = rule.label
        for start, end in rule.spans(data, lowered):
            # An earlier, more specific rule may have taken part of this span already:
            # its label stays, and only the rest gets this rule's marker.
            for piece_start, piece_end in _unclaimed(claimed, data, start, end):
                claimed[piece_start:piece_end] = b"\x01" * (piece_end - piece_start)
                replacements.append((piece_start, piece_end, kind))
    if not replacements:
        return text
    replacements.sort()
    pieces: list[bytes] = []
    position = 0
    for start, end, kind in replacements:
        pieces.extend((data[position:start], kind))
        position = end
    pieces.append(data[position:])
    return b"".join(pieces).decode("utf-8", "surrogatepass")


def _replace_custom(match: re.Match[str]) -> str:
    text = match.group(0)
    # An empty match would scatter markers between every character.
    if not text or text.startswith(MARKER_PREFIX):
        return text
    return marker("custom")


_MAX_PASSES = 4


def redact(text: str, extra_patterns: Sequence[str] = ()) -> str:
    """Return ``text`` with every recognised secret replaced by a ``[REDACTED:kind]`` marker.

    ``extra_patterns`` are regular expressions from ``redact.extra_patterns``; each whole
    match becomes ``[REDACTED:custom]``. One that does not compile or could backtrack
    without end is skipped; see ``redact_custom`` for the bounds (it raises
    ``CustomPatternTimeoutError`` rather than let a pattern run past its deadline).
    """
    if not text:
        return text
    # A marker can change what stands beside another secret (`AIza…` followed by `-----BEGIN`
    # is too long to be a Google key until the private key becomes a marker): redact again
    # until nothing changes, so that redacting twice never finds more. Only a text that had
    # a secret pays for a second pass.
    for _ in range(_MAX_PASSES):
        redacted = _redact_builtin(text)
        if redacted == text:
            break
        text = redacted
    if extra_patterns:
        from memhooks.text.redact_custom import apply_custom

        text = apply_custom(text, extra_patterns, _replace_custom)
    return text


#: How much of a longer text ``redact_prefix`` reads: enough for any secret that can
#: straddle the cut, bounded so a pasted megabyte costs a hook little.
PREFIX_WINDOW = 262_144


def cut_at_line(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters without a partial last line.

    A secret cut in half no longer matches its rule (a quoted value loses its closing
    quote, a token its length), so whatever is cut before redaction drops the line the
    cut fell in (or the last partial word, when the text has no line break).
    """
    if len(text) <= limit:
        return text
    head = text[:limit]
    position = head.rfind("\n")
    if position > 0:
        return head[: position + 1]
    position = max(head.rfind(" "), head.rfind("\t"))
    return head[:position] if position > 0 else ""


def redact_prefix(text: str, limit: int, extra_patterns: Sequence[str] = ()) -> str:
    """The first ``limit`` characters of the redacted ``text``.

    Redaction sees the whole text (up to ``PREFIX_WINDOW``) before the cut, so a secret
    that straddles ``limit`` is replaced whole instead of leaving its head behind.
    """
    return redact(cut_at_line(text, PREFIX_WINDOW), extra_patterns)[:limit]


def redact_value(value: object, extra_patterns: Sequence[str] = ()) -> object:
    """``value`` with every string in it redacted (lists and dicts of frontmatter too)."""
    if isinstance(value, str):
        return redact(value, extra_patterns)
    if isinstance(value, list):
        return [redact_value(item, extra_patterns) for item in value]
    if isinstance(value, dict):
        return {key: redact_value(item, extra_patterns) for key, item in value.items()}
    return value


def redact_field(key: str, value: object, extra_patterns: Sequence[str] = ()) -> object:
    """A frontmatter value, redacted with its key in view: `password: hunter2` is a secret
    where `hunter2` alone is just a word."""
    if isinstance(value, str):
        prefix = f"{key}: "
        paired = redact(prefix + value, extra_patterns)
        if paired.startswith(prefix):
            return paired[len(prefix) :]
    return redact_value(value, extra_patterns)
