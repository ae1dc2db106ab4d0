# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""BERT's uncased WordPiece tokenizer in the standard library (what all-MiniLM-L6-v2 reads).

Used twice: at build time to feed the model, and on the per-prompt path to look the
prompt's pieces up in the static token-vector table. `lookup` abstracts the vocabulary,
so the hot path can answer membership from sqlite without loading 30,000 entries.
"""

from __future__ import annotations

import re
import unicodedata

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

MAX_WORD_CHARS = 100
#: Words of a prompt embedded at most: bounds the hot path on pasted logs.
MAX_WORDS = 128
_SPLIT = re.compile(r"\w+|[^\w\s]", re.UNICODE)


def basic_words(text: str) -> list[str]:
    """Lowercase, strip accents, split on whitespace and punctuation (BertPreTokenizer)."""
    text = text.lower()
    if not text.isascii():
        text = "".join(
            c for c in unicodedata.normalize("NFD", text) if unicodedata.category(c) != "Mn"
        )
    words: list[str] = []
    for token in _SPLIT.findall(text):
        if "_" in token:  # BERT treats the underscore as punctuation
            for part in token.split("_"):
                if part:
                    words.append(part)
                words.append("_")
            words.pop()
        else:
            words.append(token)
    return words[:MAX_WORDS]


def candidates(word: str) -> list[str]:
    """Every piece greedy longest-match could ask about for one word (for one batched lookup)."""
    if len(word) > MAX_WORD_CHARS:
        return []
    out = []
    for start in range(len(word)):
        prefix = "##" if start else ""
        for end in range(len(word), start, -1):
            out.append(prefix + word[start:end])
    return out


def pieces(word: str, known: Callable[[str], bool]) -> list[str]:
    """Greedy longest-match-first WordPiece; ["[UNK]"] when the word cannot be covered."""
    if len(word) > MAX_WORD_CHARS:
        return ["[UNK]"]
    out: list[str] = []
    start = 0
    while start < len(word):
        end = len(word)
        found = None
        while start < end:
            piece = ("##" if start else "") + word[start:end]
            if known(piece):
                found = piece
                break
            end -= 1
        if found is None:
            return ["[UNK]"]
        out.append(found)
        start = end
    return out


def tokenize(text: str, known: Callable[[str], bool]) -> list[str]:
    return [p for w in basic_words(text) for p in pieces(w, known)]


def all_candidates(words: Iterable[str]) -> set[str]:
    return {c for w in words for c in candidates(w)}
