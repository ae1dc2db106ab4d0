# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""The prose of a session cut up for the cue phrases: sentences, paragraphs, content words,
tokens, and `Cue`, a pattern that looks only at sentences holding the words it needs.
Pure, stdlib only; each pattern is compiled on first use.
"""

from __future__ import annotations

import re

from memhooks.text.lazy_re import LazyPattern

#: People type "fine. btw we're in a freeze": a user's sentence may start in lower case.
_USER_SPLIT = LazyPattern(r"(?<=[.!?])\s+(?=\S)|\n+")
_CLAUDE_SPLIT = LazyPattern(r"(?<=[.!?])\s+(?=[A-Z\"'(\[`*])|\n+")
_WORD = LazyPattern(r"[a-z0-9_]+")
_CAMEL = LazyPattern(r"([a-z0-9])([A-Z])")
_SHORTEST_PLURAL = 3  # "bus" stays, "cursors" becomes "cursor"
_LIST_MARK = LazyPattern(r"^\s*(?:[-*+]|\d+[.)]|\([a-z0-9]\))\s+")

STOPWORDS = frozenset(
    """a an the and or but if then than so to of in on at by for from with without into onto
    is are was were be been being am do does did done have has had it its this that these those
    i we you he she they me us him her them my our your their mine ours not no yes ok okay
    will would can could should shall may might must just also still only very too more most
    all any some each every one two there here what which who whom when where why how as up
    out over under again once about after before because since while until yet now new get
    got let lets ll d s t re ve m""".split()  # noqa: SIM905 - a word list reads best as text
)


def sentences(text: str, *, from_user: bool) -> list[str]:
    """``text`` cut into sentences (and lines); list marks and emphasis stripped."""
    splitter = _USER_SPLIT if from_user else _CLAUDE_SPLIT
    pieces = (
        _LIST_MARK.sub("", piece).strip().strip("*_").strip()
        for piece in splitter.compiled.split(text)
    )
    return [piece for piece in pieces if piece]


def paragraphs(text: str) -> list[str]:
    return [part.strip() for part in re.split(r"\n\s*\n", text) if part.strip()]


def words(text: str) -> set[str]:
    """Content words, lower case, camelCase split, a plural ``s`` dropped."""
    raw = set(_WORD.compiled.findall(_CAMEL.sub(r"\1 \2", text).lower()))
    found = {
        word[:-1] if len(word) > _SHORTEST_PLURAL and word[-1] == "s" and word[-2] != "s" else word
        for word in raw
    }
    return {word for word in found if len(word) > 1} - STOPWORDS


class Cue(LazyPattern):
    """A pattern with the words it cannot match without, tested first as a set: PreCompact
    reads thousands of sentences of a long session, most hold none of a pattern's words, and
    the regular expressions are what would make a 50 MB session slow."""

    __slots__ = ("need",)

    def __init__(self, source: str, flags: int, keys: tuple[str, ...]) -> None:
        super().__init__(source, flags)
        self.need = frozenset(keys)

    def search(self, text: str, toks: frozenset[str] | None = None) -> re.Match[str] | None:
        """``toks``: ``tokens(text)`` when the caller already has them."""
        if self.need.isdisjoint(tokens(text) if toks is None else toks):
            return None
        return super().search(text)


_TOKEN = LazyPattern(r"[a-z0-9']+")


def tokens(text: str) -> frozenset[str]:
    """The lower-case words of ``text`` (hyphens split), for ``Cue.search``."""
    return frozenset(_TOKEN.compiled.findall(text.lower()))
