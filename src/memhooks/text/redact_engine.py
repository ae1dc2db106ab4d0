# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""The machinery of ``redact``: a rule finds where a match can start with a literal
(``bytes.find``, fast), then tries its full pattern only there. Standard library only."""

from __future__ import annotations

import re

from memhooks import TYPE_CHECKING
from memhooks.text.lazy_re import LazyBytes
from memhooks.text.redact_values import looks_random

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

MARKER_PREFIX = "[REDACTED:"


#: (a literal found with bytes.find; search the lowercased copy?; bytes back from the hit to
#: where the rule's pattern starts). Literals, not patterns: a hook process is new every time,
#: and compiling a rule's pattern (0.1-0.5 ms) is paid only by a text that holds its literal.
Finder = tuple[bytes, bool, int]


def marker(kind: str) -> str:
    return f"{MARKER_PREFIX}{kind}]"


def always(_value: bytes) -> bool:
    return True


def random(value: bytes) -> bool:
    return looks_random(value)


def text(*literals: bytes, back: int = 0) -> tuple[Finder, ...]:
    """Literals searched in the text as written (bytes.find: much faster than ``re``, and
    a rule's pattern is compiled only for a text that holds one of them)."""
    return tuple((literal, False, back) for literal in literals)


def lit(*stems: bytes) -> tuple[Finder, ...]:
    """Finders for lowercase literals, searched in the lowercased text."""
    return tuple((stem, True, 0) for stem in stems)


class Rule:
    """One kind of secret (a plain class: dataclasses cost the hooks ~10 ms of imports)."""

    __slots__ = ("finders", "groups", "is_secret", "kind", "label", "needs", "pattern")

    def __init__(
        self,
        kind: str,
        finders: tuple[Finder, ...],
        pattern: LazyBytes,
        groups: tuple[str, ...] = (),
        is_secret: Callable[[bytes], bool] = always,
        *,
        needs: tuple[bytes, ...] = (),
    ) -> None:
        self.kind = kind
        self.label = marker(kind).encode()
        #: where a match may start: (pattern, search the lowercased copy?, bytes back)
        self.finders = finders
        self.pattern = pattern
        #: groups holding the secret, first one that matched wins; empty: the whole match
        self.groups = groups
        self.is_secret = is_secret
        #: the pattern cannot match unless the lowercased text holds one of these
        self.needs = needs

    def spans(self, data: bytes, lowered: bytes) -> list[tuple[int, int]]:
        """Non-overlapping secret spans of this rule, in order."""
        spans: list[tuple[int, int]] = []
        last_end = -1
        if self.needs and not any(need in lowered for need in self.needs):
            return spans
        starts = candidates(self, data, lowered)
        if not starts:
            return spans
        for start in starts:
            if start < last_end:
                continue
            match = self.pattern.compiled.match(data, start)
            if match is None:
                continue
            span = secret_span(self, match)
            if span is not None and span[0] >= last_end and span[1] > span[0]:
                spans.append(span)
                last_end = match.end()
        return spans


class Scan:
    """A kind of secret found by a function of (text, lowercased text)."""

    __slots__ = ("find", "kind", "label")

    def __init__(self, kind: str, find: Callable[[bytes, bytes], list[tuple[int, int]]]) -> None:
        self.kind = kind
        self.label = marker(kind).encode()
        self.find = find

    def spans(self, data: bytes, lowered: bytes) -> list[tuple[int, int]]:
        return self.find(data, lowered)


def secret_span(rule: Rule, match: re.Match[bytes]) -> tuple[int, int] | None:
    if not rule.groups:
        return match.span() if rule.is_secret(match.group(0)) else None
    for group in rule.groups:
        value = match.group(group)
        if value is not None:
            return match.span(group) if rule.is_secret(value) else None
    return None


#: Bytes that make up a word for ``words``: what names a tool or a keyword (`ssh-keygen`,
#: `mosquitto_pub`, `psexec64.exe`), and every byte of UTF-8 beyond ASCII.
_WORD_BYTES = frozenset(b"abcdefghijklmnopqrstuvwxyz0123456789_-.") | frozenset(range(128, 256))
_TO_WORDS = bytes(byte if byte in _WORD_BYTES else 32 for byte in range(256))
_WORDS_OF: list[object] = [None, frozenset()]


def words(lowered: bytes) -> frozenset[bytes]:
    """The words of a lowercased text (one pass; the rules of one text share it): a rule that
    needs a word first asks this set, which costs less than a search per word."""
    if _WORDS_OF[0] is not lowered:
        _WORDS_OF[:] = [lowered, frozenset(lowered.translate(_TO_WORDS).split())]
    return _WORDS_OF[1]  # type: ignore[return-value]  # set with its text just above


_POSITIONS: list[object] = [None, {}]


def positions(lowered: bytes, literal: bytes) -> list[int]:
    """Where ``literal`` stands in ``lowered``, searched once per text however many rules ask
    (`pass`, `token`, `secret` are looked for by five of them)."""
    if _POSITIONS[0] is not lowered:
        _POSITIONS[:] = [lowered, {}]
    found: dict[bytes, list[int]] = _POSITIONS[1]  # type: ignore[assignment]  # made above
    hits = found.get(literal)
    if hits is None:
        hits = found[literal] = []
        position = lowered.find(literal)
        while position != -1:
            hits.append(position)
            position = lowered.find(literal, position + 1)
    return hits


def first_hits(lowered: bytes, literals: tuple[bytes, ...]) -> Iterator[tuple[int, bytes]]:
    """Each position where one of ``literals`` is found, once, with the first literal (in the
    order given) found there."""
    seen: set[int] = set()
    for literal in literals:
        for position in positions(lowered, literal):
            if position not in seen:
                seen.add(position)
                yield position, literal


def candidates(rule: Rule, data: bytes, lowered: bytes) -> list[int]:
    starts: list[int] = []
    for finder, on_lowered, back in rule.finders:
        haystack = lowered if on_lowered else data
        position = haystack.find(finder)
        while position != -1:
            starts.append(position - back)
            position = haystack.find(finder, position + 1)
    if len(rule.finders) > 1 or any(back for _, _, back in rule.finders):
        return sorted({start for start in starts if start >= 0})
    return starts
