"""The restore hooks as the host runs them: per-session checkpoints, PostCompact, the reminder."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

from support import FIXTURES, local_of, run_cli, run_hook

SESSION_A = "aaaaaaaa-0000-4000-8000-000000000001"
SESSION_B = "bbbbbbbb-0000-4000-8000-000000000002"
MESSY = FIXTURES / "transcripts2" / "c1-rust-json-output"


def _payload(project: Path, session: str, **extra: Any) -> dict[str, Any]:
    return {"session_id": session, "cwd": str(project), **extra}


def _context(done: subprocess.CompletedProcess[bytes]) -> str:
    assert done.returncode == 0, done.stderr
    if not done.stdout.strip():
        return ""
    return str(json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"])


def _compact(project: Path, session: str, transcript: Path) -> None:
    done = run_hook(
        "PreCompact",
        _payload(project, session, transcript_path=str(transcript), trigger="manual"),
    )
    assert done.returncode == 0, done.stderr


def _compacted(started: Path, tmp_path: Path) -> tuple[Path, Path]:
    """Session A's PreCompact ran on the messy session: (project, transcript)."""
    project = started.parent.parent
    transcript = tmp_path / "a.jsonl"
    shutil.copy(MESSY / "transcript_at_precompact.jsonl", transcript)
    _compact(project, SESSION_A, transcript)
    return project, transcript


def test_compact_restores_this_sessions_evidence_never_anothers(
    started: Path, tmp_path: Path
) -> None:
    project, transcript = _compacted(started, tmp_path)
    assert (started / "checkpoints" / "sessions" / f"{SESSION_A}.md").is_file()
    assert (started / "checkpoints" / "latest.md").is_file()  # kept for people
    assert (local_of(started) / "restore" / f"{SESSION_A}.json").is_file()
    payload = _payload(project, SESSION_A, source="compact", transcript_path=str(transcript))
    text = _context(run_hook("SessionStart", payload))
    # No host summary to read (on 2.1.332 SessionStart(compact) runs before PostCompact and
    # before the summary reaches the transcript), but the model has it: only the complement.
    assert "What the compaction summary may not keep" in text
    assert text.index("## What the record proves") < text.index("## The user's own words")
    assert "## What was said" not in text
    assert "I want a --json output mode" in text
    assert len(text) <= 9_000
    # resume: the host restores the conversation itself.
    resume = _context(run_hook("SessionStart", _payload(project, SESSION_A, source="resume")))
    assert "I want a --json output mode" not in resume
    # Session B never compacted: A's evidence must not be restored into it.
    other = _context(run_hook("SessionStart", _payload(project, SESSION_B, source="compact")))
    assert "I want a --json output mode" not in other


def test_after_a_compaction_only_what_complements_the_host_summary(
    started: Path, tmp_path: Path
) -> None:
    project, transcript = _compacted(started, tmp_path)
    summary = "1. Primary Request and Intent: a --json mode for hitcount. " * 5
    with transcript.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps({"type": "system", "subtype": "compact_boundary"}) + "\n")
        handle.write(
            json.dumps(
                {
                    "type": "user",
                    "isCompactSummary": True,
                    "message": {"role": "user", "content": summary},
                }
            )
            + "\n"
        )
    payload = _payload(project, SESSION_A, source="compact", transcript_path=str(transcript))
    text = _context(run_hook("SessionStart", payload))
    assert "What the compaction summary may not keep" in text
    assert "## The user's own words" in text
    assert "## What was said" not in text  # the host's summary carries the rest
    full = _context(run_hook("SessionStart", _payload(project, SESSION_B, source="startup")))
    assert len(text) < len(full)


def _stop(project: Path, session: str, transcript: Path, last: str = "") -> None:
    payload = _payload(
        project, session, transcript_path=str(transcript), last_assistant_message=last
    )
    done = run_hook("Stop", payload)
    assert done.returncode == 0, done.stderr


def test_the_next_session_is_restored_from_what_stop_kept(started: Path, tmp_path: Path) -> None:
    """A fresh session (startup or clear) gets where the last one stood, with its age and
    whether it ended cleanly; the evidence grew turn by turn at Stop."""
    project = started.parent.parent
    lines = (MESSY / "transcript_at_precompact.jsonl").read_bytes().splitlines(keepends=True)
    transcript = tmp_path / "a.jsonl"
    half = len(lines) // 2
    transcript.write_bytes(b"".join(lines[:half]))
    _stop(project, SESSION_A, transcript)
    first = json.loads((local_of(started) / "restore" / f"{SESSION_A}.json").read_text())
    transcript.write_bytes(b"".join(lines))
    _stop(project, SESSION_A, transcript, last="Which one should I build, (a) or (b)?")
    state = json.loads((local_of(started) / "restore" / f"{SESSION_A}.json").read_text())
    assert len(state["turns"]) > len(first["turns"])
    assert state["turns"][: len(first["turns"]) - 1] == first["turns"][:-1]
    text = _context(run_hook("SessionStart", _payload(project, SESSION_B, source="startup")))
    assert "Where the last session on this project stood (session aaaaaaaa" in text
    assert "no clean end was recorded" in text
    assert "I want a --json output mode" in text  # the goal, from the first prompt
    assert "also want a totals line at the end" in text  # the latest request
    assert "no prompt has answered yet" in text
    assert len(text) <= 9_000
    done = run_hook("SessionEnd", _payload(project, SESSION_A, reason="prompt_input_exit"))
    assert done.returncode == 0
    text = _context(run_hook("SessionStart", _payload(project, SESSION_B, source="clear")))
    assert "it ended cleanly at" in text


def test_a_briefing_in_a_fresh_project_has_no_filler(started: Path) -> None:
    project = started.parent.parent
    text = _context(run_hook("SessionStart", _payload(project, SESSION_A, source="startup")))
    for filler in ("(not set)", "No memories yet", "(none", "blockers: none", "Memory index"):
        assert filler not in text
    assert "Status" not in text  # nothing set by hand: no status line at all


def test_a_status_set_by_hand_is_shown_without_placeholders(started: Path) -> None:
    project = started.parent.parent
    assert run_cli("task", "Ship the slugs").returncode == 0
    text = _context(run_hook("SessionStart", _payload(project, SESSION_A, source="startup")))
    assert "task: Ship the slugs" in text
    assert "next:" not in text
    assert "blockers:" not in text


def test_the_reminder_speaks_only_when_it_has_something_new(started: Path) -> None:
    project = started.parent.parent

    def prompt() -> str:
        return _context(run_hook("UserPromptSubmit", _payload(project, SESSION_A, prompt="hi")))

    assert prompt() == ""  # no status and no pointer: nothing
    assert run_cli("task", "Ship the slugs").returncode == 0
    assert "task: Ship the slugs" in prompt()  # changed
    assert prompt() == ""  # unchanged
    run_hook("SessionStart", _payload(project, SESSION_A, source="compact"))
    assert "task: Ship the slugs" in prompt()  # first prompt after a compaction
    assert prompt() == ""
    assert run_cli("task", "Ship the slugs", "--next", "add redirects").returncode == 0
    assert "next: add redirects" in prompt()
    # Another session gets its own first reminder.
    other = run_hook("UserPromptSubmit", _payload(project, SESSION_B, prompt="hi"))
    assert "Ship the slugs" in _context(other)


def test_post_compact_keeps_the_summary_redacted_and_injects_nothing(
    examples: dict[str, dict[str, Any]], started: Path
) -> None:
    project = started.parent.parent
    payload = dict(examples["PostCompact:manual"])
    payload.update(
        cwd=str(project),
        compact_summary="<analysis>thinking</analysis>\n<summary>1. Primary request: ship "
        "--json.\nDB password=hunter2secret was used.</summary>",
    )
    done = run_hook("PostCompact", payload)
    assert done.returncode == 0, done.stderr
    assert done.stdout == b""
    record = (started / "sessions" / f"{payload['session_id']}.md").read_text(encoding="utf-8")
    assert "Primary request: ship --json." in record
    assert "hunter2secret" not in record
    assert "thinking" not in record
