"""Printing material in numbered chunks (`summarize` and `synthesize`, `--chunks | --chunk N`):
an overview of every chunk's opening words, or one chunk between banners."""

from __future__ import annotations

from typing import Any

from memhooks.cli.output import emit
from memhooks.continuity.chunks import MIN_CHUNK_CHARS, first_words
from memhooks.errors import Exit, UserError


def check_chunk_chars(chunk_chars: int) -> None:
    """A `--chunk-chars` below the minimum is a usage error, said before any work is done."""
    if chunk_chars < MIN_CHUNK_CHARS:
        raise UserError(f"--chunk-chars must be at least {MIN_CHUNK_CHARS:,}", Exit.USAGE)


def print_chunk(
    chunks: list[str], number: int, label: str, about: dict[str, Any], *, as_json: bool
) -> int:
    """Chunk `number` (from 1) between `=== {label}: chunk N of M ===` banners."""
    total = len(chunks)
    if not 1 <= number <= total:
        raise UserError(f"chunk {number} does not exist: there are {total}", Exit.NOT_FOUND)
    text = chunks[number - 1]
    emit(
        {**about, "chunk": number, "chunks": total, "text": text},
        f"=== {label}: chunk {number} of {total} ===\n{text}\n"
        f"=== end of chunk {number} of {total} ===",
        as_json=as_json,
    )
    return Exit.OK


def print_overview(
    chunks: list[str],
    chunk_chars: int,
    head: list[str],
    about: dict[str, Any],
    *,
    more: dict[str, Any] | None = None,
    as_json: bool,
) -> int:
    """`head`, then each chunk's opening words; JSON: `about`, the counts, `more`, openings."""
    openings = [first_words(c) for c in chunks]
    lines = [*head, "", *(f"chunk {n}: {o}" for n, o in enumerate(openings, 1))]
    emit(
        {
            **about,
            "chunks": len(chunks),
            "chunk_chars": chunk_chars,
            **(more or {}),
            "openings": openings,
        },
        "\n".join(lines),
        as_json=as_json,
    )
    return Exit.OK
