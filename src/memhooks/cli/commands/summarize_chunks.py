"""`memhooks summarize --chunks | --chunk N`: a session's whole material, in bounded reads.

The summarize agent reads a long session this way in its own context (seed 002, option B):
first the overview, then each chunk in turn, then it saves through `summarize --save`.
"""

from __future__ import annotations

import argparse

from memhooks.chunks import MIN_CHUNK_CHARS, first_words, split
from memhooks.cli.common import open_store
from memhooks.cli.errors import Exit, UserError
from memhooks.cli.output import emit
from memhooks.invocation import cli_command
from memhooks.paths import MemoryPaths
from memhooks.session_material import locate_transcript, reading
from memhooks.session_state import StateUnreadableError, read_state


def print_chunks(paths: MemoryPaths, session_id: str, args: argparse.Namespace) -> int:
    if args.chunk_chars < MIN_CHUNK_CHARS:
        raise UserError(f"--chunk-chars must be at least {MIN_CHUNK_CHARS:,}", Exit.USAGE)
    transcript = args.transcript_file
    if transcript is not None and not transcript.is_file():
        raise UserError(f"no transcript at {transcript}", Exit.NOT_FOUND)
    if transcript is None:
        try:
            state = read_state(paths.session) or {}
        except StateUnreadableError:
            state = {}
        transcript = locate_transcript(session_id, paths.root.parent.parent, state)
    settings = open_store(paths).settings
    chunks = split(
        reading(paths, session_id, transcript, settings.redact_patterns), args.chunk_chars
    )
    total = len(chunks)
    if args.chunk is not None:
        if not 1 <= args.chunk <= total:
            raise UserError(f"chunk {args.chunk} does not exist: there are {total}", Exit.NOT_FOUND)
        text = chunks[args.chunk - 1]
        emit(
            {"session_id": session_id, "chunk": args.chunk, "chunks": total, "text": text},
            f"=== Session {session_id}: chunk {args.chunk} of {total} ===\n{text}\n"
            f"=== end of chunk {args.chunk} of {total} ===",
            as_json=args.json,
        )
        return Exit.OK
    summaries = [n for n, c in enumerate(chunks, 1) if "HOST COMPACTION SUMMARY" in c]
    how = f"{cli_command()} summarize --chunk K --session {session_id}"
    lines = [
        f"Session: {session_id}",
        f"Transcript: {transcript or 'not found (pass --transcript-file PATH)'}",
        f"Material: {total} chunk(s) of at most {args.chunk_chars:,} characters. Read each "
        f"in turn with:\n  {how}",
        "Host compaction summaries in chunk(s): "
        + (", ".join(map(str, summaries)) if summaries else "none"),
        "",
        *(f"chunk {n}: {first_words(c)}" for n, c in enumerate(chunks, 1)),
    ]
    emit(
        {
            "session_id": session_id,
            "transcript": str(transcript) if transcript else None,
            "chunks": total,
            "chunk_chars": args.chunk_chars,
            "compaction_summaries_in": summaries,
            "openings": [first_words(c) for c in chunks],
        },
        "\n".join(lines),
        as_json=args.json,
    )
    return Exit.OK
