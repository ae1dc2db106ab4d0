"""What Windows users bring: CRLF files, backslashed paths, spaces in paths.

(`python` instead of `python3` is covered in test_manifest.py; the CI matrix runs the whole
suite on Windows.)
"""

from __future__ import annotations

import json
from pathlib import Path

from support import run_cli, run_hook

CRLF_MEMORY = (
    b"---\r\ntitle: CRLF memory\r\ncategory: runbook\r\ntags: [windows]\r\n---\r\n"
    b"# CRLF memory\r\n\r\n## Steps\r\n1. restart the agent\r\n"
)


def test_crlf_memory_is_indexed_and_left_untouched(started: Path) -> None:
    target = started / "runbooks" / "crlf.md"
    target.write_bytes(CRLF_MEMORY)
    assert run_cli("rebuild").returncode == 0
    assert "- [CRLF memory](runbooks/crlf.md) — restart the agent" in (
        started / "MEMORY.md"
    ).read_text(encoding="utf-8")
    assert target.read_bytes() == CRLF_MEMORY
    shown = json.loads(run_cli("show", "runbooks/crlf.md", "--json").stdout)
    assert shown["meta"]["tags"] == ["windows"]


def test_backslashed_paths_name_the_same_memory(started: Path) -> None:
    (started / "runbooks" / "crlf.md").write_bytes(CRLF_MEMORY)
    assert run_cli("rebuild").returncode == 0
    shown = run_cli("show", "runbooks\\crlf.md", "--json")
    assert shown.returncode == 0, shown.stderr
    retired = run_cli("retire", ".claude/memory/runbooks/crlf.md", "--reason", "test")
    assert retired.returncode == 0, retired.stderr
    escape = run_cli("show", "runbooks\\..\\..\\secret.md")
    assert escape.returncode == 9
    assert escape.stderr.count("\n") == 1


def test_crlf_context_files_give_the_status_line(started: Path) -> None:
    (started / "context" / "current-task.md").write_bytes(
        b"# Current task\r\n\r\n## Task\r\nPort the build to Windows\r\n\r\n## Next step\r\n"
        b"fix paths\r\n"
    )
    status = json.loads(run_cli("task", "--json").stdout)
    assert status["task"] == "Port the build to Windows"
    assert status["next"] == "fix paths"


def test_non_latin_memories_survive_a_legacy_code_page(started: Path) -> None:
    """A Windows pipe is cp1252: the briefing must not be lost to a UnicodeEncodeError."""
    assert run_cli("save", "decision", "--title", "中文标题 — 決定").returncode == 0
    payload = {"session_id": "s1", "cwd": str(started.parent.parent), "source": "startup"}
    done = run_hook("SessionStart", payload, env={"PYTHONIOENCODING": "cp1252"})
    assert done.returncode == 0
    text = json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "中文标题 — 決定" in text
    listed = run_cli("list", env={"PYTHONIOENCODING": "cp1252"})
    assert listed.returncode == 0, listed.stderr
    assert "中文标题" in listed.stdout
