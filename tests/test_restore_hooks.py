"""The restore hooks as the host runs them: per-session checkpoints, PostCompact, the reminder."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

from memhooks.git_state import git_state, parse_status
from support import FIXTURES, run_cli, run_hook

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


def test_compact_and_resume_restore_this_sessions_checkpoint_never_anothers(
    started: Path, tmp_path: Path
) -> None:
    project = started.parent.parent
    transcript = tmp_path / "a.jsonl"
    shutil.copy(MESSY / "transcript_at_precompact.jsonl", transcript)
    _compact(project, SESSION_A, transcript)
    assert (started / "checkpoints" / "sessions" / f"{SESSION_A}.md").is_file()
    assert (started / "checkpoints" / "latest.md").is_file()  # kept for people
    for source in ("compact", "resume"):
        text = _context(run_hook("SessionStart", _payload(project, SESSION_A, source=source)))
        assert text.index("checkpoints/sessions/") < text.index("## Now")
        assert "I want a --json output mode" in text
    # Session B never compacted: latest.md (A's) must not be restored into it.
    other = _context(run_hook("SessionStart", _payload(project, SESSION_B, source="compact")))
    assert "I want a --json output mode" not in other
    assert "checkpoint" not in other.lower()


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


def test_git_state_reads_branch_and_uncommitted_files(tmp_path: Path) -> None:
    assert git_state(str(tmp_path)) == ("", [])  # not a repository
    if shutil.which("git") is None:
        return
    env_cmd = ["git", "-C", str(tmp_path)]
    subprocess.run([*env_cmd, "init", "-q", "-b", "feat/json"], check=True)
    (tmp_path / "a.txt").write_text("x", encoding="utf-8")
    branch, files = git_state(str(tmp_path))
    assert branch == "feat/json"
    assert files == ["a.txt (??)"]


def test_parse_status() -> None:
    out = "## main...origin/main [ahead 1]\n M src/x.py\nR  old.py -> new.py\n?? notes.md\n"
    assert parse_status(out) == ("main", ["src/x.py (M)", "new.py (R)", "notes.md (??)"])
    assert parse_status("## HEAD (no branch)\n")[0] == ""
