"""Long material in numbered chunks, so an agent can read it in bounded steps.

`summarize --chunks` and `synthesize --chunks` print an overview; `--chunk N` prints one
chunk. Chunks break between lines; a line longer than a chunk is cut into pieces.
"""

from __future__ import annotations

from collections.abc import Iterable

from memhooks.text import clip

DEFAULT_CHUNK_CHARS = 15_000  # well under the 30,000 characters a Bash result keeps
MIN_CHUNK_CHARS = 1_000


def split(lines: Iterable[str], size: int = DEFAULT_CHUNK_CHARS) -> list[str]:
    """The lines joined into chunks of at most `size` characters each."""
    chunks: list[str] = []
    current: list[str] = []
    used = 0
    for line in lines:
        pieces = [line[i : i + size] for i in range(0, len(line), size)] or [""]
        for piece in pieces:
            if current and used + len(piece) + 1 > size:
                chunks.append("\n".join(current))
                current, used = [], 0
            current.append(piece)
            used += len(piece) + 1
    if current and any(part.strip() for part in current):
        chunks.append("\n".join(current))
    return chunks


def first_words(chunk: str, limit: int = 100) -> str:
    """What a chunk opens with, on one line, for the overview."""
    return clip(chunk, limit, fold=True)
