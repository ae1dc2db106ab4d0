"""`memhooks summarize`: material for the session summary, and saving it (seed 002)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memhooks.cli.main import main
from support import local_of, run_main

SUMMARY = """\
# Fix price rounding in reports

## Context
Reports showed prices a cent off; the cause was float rounding.

## Tracking Points
- Decision: Decimal with ROUND_HALF_UP in money.py, because floats round half-even
- Discovery: report.py formatted prices itself
- **Status**: tests pass; the token ghp_abcdefghijklmnopqrstuvwxyz0123456789 leaked in a log

## Related Files/Artifacts
- money.py, report.py
"""

JOURNAL = "## Automatic journal\n- 10:00 edited money.py\n- 10:05 pytest failed\n"


@pytest.fixture
def memory(memory: Path) -> Path:
    """The shared started tree, with two sessions recorded."""
    root = memory
    state = json.loads((local_of(root) / "session.json").read_text())
    state["sessions"] = [
        {"id": "newest-by-time", "last_activity": "2025-06-02T10:00:00Z"},
        {"id": "older", "last_activity": "2025-06-01T10:00:00Z"},
    ]
    (local_of(root) / "session.json").write_text(json.dumps(state))
    return root


def run(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    *argv: str,
    stdin: str = "",
) -> tuple[int, str, str]:
    return run_main(capsys, *argv, monkeypatch=monkeypatch, stdin=stdin)


def test_material_uses_the_latest_session_and_shows_journal_checkpoint_template(
    memory: Path, capsys, monkeypatch
) -> None:
    (memory / "sessions" / "newest-by-time.md").write_text(
        "---\ntitle: Session newest-by-time\ncategory: session_summary\n---\n"
        "# Session newest-by-time\n\n" + JOURNAL
    )
    (memory / "checkpoints" / "sessions").mkdir()
    (memory / "checkpoints" / "sessions" / "newest-by-time.md").write_text(
        "# Checkpoint\n\nTask: CHECKPOINT-TASK\n"
    )
    # Another session's compaction: never part of this session's material.
    (memory / "checkpoints" / "latest.md").write_text(
        "---\nsession_id: someone-else\n---\n# Checkpoint\n\nTask: OTHER-SESSION-TASK\n"
    )
    code, out, err = run(capsys, monkeypatch, "summarize", "--material")
    assert code == 0, err
    assert out.startswith("Session: newest-by-time\n")
    assert "sessions/newest-by-time.md (new)" in out  # a bare journal is no summary yet
    assert "- 10:05 pytest failed" in out
    assert "CHECKPOINT-TASK" in out
    assert "OTHER-SESSION-TASK" not in out
    assert "## Tracking Points" in out
    assert "- Decision:" in out


def test_material_for_an_explicit_session_shows_the_existing_summary(
    memory: Path, capsys, monkeypatch
) -> None:
    assert (
        run(capsys, monkeypatch, "summarize", "--save", "--session", "older", stdin=SUMMARY)[0] == 0
    )
    code, out, _ = run(capsys, monkeypatch, "summarize", "--material", "older", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["session_id"] == "older"
    assert data["path"] == ".claude/memory/sessions/older.md"
    assert "Decimal with ROUND_HALF_UP" in data["existing_summary"]
    assert data["journal"] is None


def test_save_writes_the_session_file_and_a_rerun_updates_it_keeping_the_journal(
    memory: Path, capsys, monkeypatch
) -> None:
    target = memory / "sessions" / "newest-by-time.md"
    target.write_text(
        "---\ntitle: Session newest-by-time\ncategory: session_summary\n---\n"
        "# Session newest-by-time\n\n" + JOURNAL
    )
    code, out, err = run(capsys, monkeypatch, "summarize", "--save", "--json", stdin=SUMMARY)
    assert code == 0, err
    data = json.loads(out)
    assert data["path"] == ".claude/memory/sessions/newest-by-time.md"
    assert data["tracking_points"] == ["Decision", "Discovery", "Status"]
    text = target.read_text()
    assert "title: Fix price rounding in reports" in text
    assert "session_id: newest-by-time" in text
    assert "Reports showed prices a cent off" in text
    assert "ghp_abcdefghijklmnopqrstuvwxyz0123456789" not in text  # redacted
    assert text.count("## Automatic journal") == 1
    assert text.index("## Tracking Points") < text.index("## Automatic journal")
    # A re-run in the same session replaces the summary in the same file, journal kept.
    again = SUMMARY.replace("a cent off", "two cents off") + "\n" + JOURNAL
    code, out, _ = run(capsys, monkeypatch, "summarize", "--save", stdin=again)
    assert code == 0
    assert out.startswith("Updated the session summary: .claude/memory/sessions/newest-by-time.md")
    text = target.read_text()
    assert "two cents off" in text
    assert "a cent off" not in text
    assert text.count("## Automatic journal") == 1
    assert sorted(p.name for p in (memory / "sessions").iterdir()) == ["newest-by-time.md"]
    index = (memory / "MEMORY.md").read_text()
    assert "[Fix price rounding in reports](sessions/newest-by-time.md)" in index


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("## Context\nx\n\n## Tracking Points\n- Status: y\n", "no '# Title' line"),
        ("# T\n\n## Tracking Points\n- Status: y\n", "no '## Context' section"),
        ("# T\n\n## Context\nx\n", "no '## Tracking Points' section"),
        ("# T\n\n## Context\nx\n\n## Tracking Points\n- just a note\n", "no labelled point"),
    ],
)
def test_save_refuses_a_summary_without_the_structure(
    memory: Path, capsys, monkeypatch, text: str, problem: str
) -> None:
    code, _, err = run(capsys, monkeypatch, "summarize", "--save", stdin=text)
    assert code == 5
    assert problem in err
    assert not (memory / "sessions" / "newest-by-time.md").exists()


def test_save_refuses_empty_stdin(memory: Path, capsys, monkeypatch) -> None:
    code, _, err = run(capsys, monkeypatch, "summarize", "--save", stdin="  \n")
    assert code == 5
    assert "stdin" in err


@pytest.mark.parametrize("bad", ["../escape", "a/b", ".hidden", "x" * 200, "id with space"])
def test_session_ids_cannot_leave_the_tree(memory: Path, capsys, monkeypatch, bad: str) -> None:
    code, _, err = run(capsys, monkeypatch, "summarize", "--save", "--session", bad, stdin=SUMMARY)
    assert code == 9
    assert "not a session id" in err
    assert not list((memory.parent).glob("escape*"))


def test_no_session_recorded(memory: Path, capsys, monkeypatch) -> None:
    state = json.loads((local_of(memory) / "session.json").read_text())
    state["sessions"] = []
    (local_of(memory) / "session.json").write_text(json.dumps(state))
    code, _, err = run(capsys, monkeypatch, "summarize", "--material")
    assert code == 7
    assert "--session" in err
    # The slash command passes '' when the user gives no id: that means "the latest".
    code, _, _ = run(capsys, monkeypatch, "summarize", "--material", "", "--session", "given")
    assert code == 0


def test_material_or_save_is_required(memory: Path, capsys, monkeypatch) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["summarize"])
    assert exc.value.code == 2
