# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""BERT's uncased WordPiece tokenizer in the standard library (what all-MiniLM-L6-v2 reads).

Used at install time to feed the model (semantic_build) and on every prompt to look the
prompt's pieces up in the static token-vector table (semantic). `known` abstracts the
vocabulary, so the hot path answers membership from a dict filled by one batched sqlite
query instead of loading 30,000 entries.
"""

from __future__ import annotations

import re

from memhooks import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

MAX_WORD_CHARS = 100
#: Words of a prompt embedded at most: bounds the hot path on pasted logs.
MAX_WORDS = 128
#: Characters of a text read for those words: normalising a pasted 2 MB log whole cost a
#: prompt a quarter of a second for 128 words.
MAX_TEXT_CHARS = 16_384
_SPLIT = re.compile(r"\w+|[^\w\s]", re.UNICODE)


def basic_words(text: str) -> list[str]:
    """Lowercase, strip accents, split on whitespace and punctuation (BertPreTokenizer):
    the first MAX_WORDS words of the first MAX_TEXT_CHARS characters."""
    text = text[:MAX_TEXT_CHARS].lower()
    if not text.isascii():
        import unicodedata  # only for accents: the import costs every prompt otherwise

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


def candidates(word: str, max_piece: int = MAX_WORD_CHARS) -> list[str]:
    """Every piece greedy longest-match could ask about for one word (for one batched lookup),
    pieces longer than `max_piece` characters left out (the vocabulary has none)."""
    if len(word) > MAX_WORD_CHARS:
        return []
    out: list[str] = []
    for start in range(len(word)):
        prefix = "##" if start else ""
        ends = range(min(len(word), start + max_piece), start, -1)
        out.extend(prefix + word[start:end] for end in ends)
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
