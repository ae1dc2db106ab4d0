"""`memhooks summarize --chunks | --chunk N`: a session's whole material, in bounded reads.

The summarize agent reads a long session this way in its own context (seed 002, option B):
first the overview, then each chunk in turn, then it saves through `summarize --save`.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from memhooks.cli.chunk_output import check_chunk_chars, print_chunk, print_overview
from memhooks.cli.common import open_store
from memhooks.continuity.chunks import split
from memhooks.curate.session_material import locate_transcript, reading
from memhooks.errors import Exit, UserError
from memhooks.install.invocation import cli_command
from memhooks.store import MemoryPaths, StateUnreadableError, read_state


def print_chunks(paths: MemoryPaths, session_id: str, args: argparse.Namespace) -> int:
    check_chunk_chars(args.chunk_chars)
    transcript = args.transcript_file
    if transcript is not None and not transcript.is_file():
        raise UserError(f"no transcript at {transcript}", Exit.NOT_FOUND)
    if transcript is None:
        try:
            state = read_state(paths.session) or {}
        except StateUnreadableError:
            state = {}
        transcript = locate_transcript(session_id, Path(paths.base).parent.parent, state)
    settings = open_store(paths).settings
    material = reading(paths, session_id, transcript, settings.redact_patterns)
    chunks = split(material, args.chunk_chars)
    about: dict[str, str | None] = {"session_id": session_id}
    if args.chunk is not None:
        label = f"Session {session_id}"
        return print_chunk(chunks, args.chunk, label, about, as_json=args.json)
    summaries = [n for n, c in enumerate(chunks, 1) if "HOST COMPACTION SUMMARY" in c]
    how = f"{cli_command()} summarize --chunk K --session {session_id}"
    head = [
        f"Session: {session_id}",
        f"Transcript: {transcript or 'not found (pass --transcript-file PATH)'}",
        f"Material: {len(chunks)} chunk(s) of at most {args.chunk_chars:,} characters. Read "
        f"each in turn with:\n  {how}",
        "Host compaction summaries in chunk(s): "
        + (", ".join(map(str, summaries)) if summaries else "none"),
    ]
    about["transcript"] = str(transcript) if transcript else None
    more = {"compaction_summaries_in": summaries}
    return print_overview(chunks, args.chunk_chars, head, about, more=more, as_json=args.json)
