"""A hook that finds the store lock taken fails open and loses nothing: the next hook of the
session catches up from the transcript (Stop's offsets, the compact-summary record).

The lock is held by the test itself while the hook runs, so the contention is certain, not
timed: the hook waits its own short timeout and gives up."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from memhooks.continuity.host_summary import summary_text
from memhooks.hooks.evidence_update import load
from memhooks.store import MemoryPaths, quick_lock
from support import FIXTURES, run_hook, transcript_turns

CONTENDED = "aaaaaaaa-0000-4000-8000-0000000000c1"
QUIET = "aaaaaaaa-0000-4000-8000-0000000000c2"
TRANSCRIPT = FIXTURES / "transcripts2" / "c1-rust-json-output" / "transcript_at_precompact.jsonl"
SUMMARY = "<summary>NDJSON output for hitcount; the totals line is still open.</summary>"


def _turns() -> list[list[bytes]]:
    """The fixture's turns, without the host's bookkeeping before the first prompt."""
    return transcript_turns(TRANSCRIPT.read_bytes().splitlines(keepends=True))[1:]


def _compaction() -> list[bytes]:
    """What the host appends when it compacts: the boundary, then its summary as a user
    record marked isCompactSummary."""
    boundary = {"type": "system", "subtype": "compact_boundary", "timestamp": "2026-11-27T09:00Z"}
    said = "This session is being continued from a previous conversation.\n\n" + SUMMARY
    summary = {
        "type": "user",
        "isCompactSummary": True,
        "message": {"role": "user", "content": said},
        "timestamp": "2026-11-27T09:00Z",
    }
    return [json.dumps(record).encode() + b"\n" for record in (boundary, summary)]


class _Session:
    def __init__(self, started: Path, tmp_path: Path, session: str) -> None:
        self.project = started.parent.parent
        self.session = session
        self.transcript = tmp_path / f"{session}.jsonl"
        self.transcript.write_bytes(b"")

    def hook(self, event: str, **extra: Any) -> bytes:
        """The hook's stderr; it always exits 0 (hooks fail open)."""
        payload = {
            "session_id": self.session,
            "cwd": str(self.project),
            "transcript_path": str(self.transcript),
            **extra,
        }
        done = run_hook(event, payload)
        assert done.returncode == 0, done.stderr
        return done.stderr

    def turn(self, lines: list[bytes]) -> bytes:
        with self.transcript.open("ab") as out:
            out.writelines(lines)
        return self.hook("Stop")


def _comparable(state: dict[str, Any] | None) -> dict[str, Any]:
    assert state is not None
    return {k: v for k, v in state.items() if k not in ("session_id", "seq")}


def test_a_stop_that_found_the_lock_taken_is_caught_up_by_the_next(
    started: Path, tmp_path: Path
) -> None:
    paths = MemoryPaths(started)
    turns = _turns()
    quiet = _Session(started, tmp_path, QUIET)
    for lines in turns[:3]:
        quiet.turn(lines)
    contended = _Session(started, tmp_path, CONTENDED)
    contended.turn(turns[0])
    with quick_lock(paths.lock, 0):
        assert b"failed open" in contended.turn(turns[1])
    contended.turn(turns[2])
    state = load(paths, CONTENDED)
    assert _comparable(state) == _comparable(load(paths, QUIET))
    assert state is not None
    assert len(state["turns"]) == 3
    journal = (started / "sessions" / f"{CONTENDED}.md").read_text(encoding="utf-8")
    for turn in state["turns"]:
        assert turn["prompt"].splitlines()[0][:40] in journal


@pytest.mark.parametrize("next_hook", ["Stop", "SessionEnd"])
def test_a_host_summary_post_compact_could_not_keep_comes_from_the_transcript(
    started: Path, tmp_path: Path, next_hook: str
) -> None:
    """PostCompact's summary is lost with its write; the next Stop, or the session's end,
    reads the same summary from the record the host wrote into the transcript."""
    paths = MemoryPaths(started)
    turns = _turns()
    contended = _Session(started, tmp_path, CONTENDED)
    for lines in turns[:2]:
        contended.turn(lines)
    contended.hook("PreCompact", trigger="manual", custom_instructions="")
    with contended.transcript.open("ab") as out:
        out.writelines(_compaction())
    contended.hook("SessionStart", source="compact")
    with quick_lock(paths.lock, 0):
        assert b"failed open" in contended.hook(
            "PostCompact", trigger="manual", compact_summary=SUMMARY
        )
    state = load(paths, CONTENDED)
    assert state is not None
    assert state["summary"] is None
    if next_hook == "Stop":
        contended.turn(turns[2])
    else:
        contended.hook("SessionEnd", reason="prompt_input_exit")
    state = load(paths, CONTENDED)
    assert state is not None
    assert state["summary"]["text"] == summary_text(SUMMARY)


def test_a_last_stop_that_found_the_lock_taken_is_caught_up_at_session_end(
    started: Path, tmp_path: Path
) -> None:
    """No Stop follows the last one: SessionEnd keeps what it could not, in the evidence and
    in the journal."""
    paths = MemoryPaths(started)
    turns = _turns()
    contended = _Session(started, tmp_path, CONTENDED)
    contended.turn(turns[0])
    with quick_lock(paths.lock, 0):
        assert b"failed open" in contended.turn(turns[1])
    contended.hook("SessionEnd", reason="prompt_input_exit")
    state = load(paths, CONTENDED)
    assert state is not None
    assert len(state["turns"]) == 2
    journal = (started / "sessions" / f"{CONTENDED}.md").read_text(encoding="utf-8")
    for turn in state["turns"]:
        assert turn["prompt"].splitlines()[0][:40] in journal
