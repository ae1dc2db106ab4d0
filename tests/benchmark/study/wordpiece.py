"""The study's WordPiece became the product's (`memhooks.recall.wordpiece`): one copy of it."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "src"))

from collections.abc import Iterable

from memhooks.recall.wordpiece import basic_words, candidates, pieces, tokenize

__all__ = ["all_candidates", "basic_words", "candidates", "pieces", "tokenize"]


def all_candidates(words: Iterable[str]) -> set[str]:
    return {c for w in words for c in candidates(w)}
