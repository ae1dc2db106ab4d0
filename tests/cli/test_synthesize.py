"""`memhooks synthesize`: incremental material for master.md, and saving it with a diff."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from memhooks.cli.main import main
from memhooks.curate.summary_format import Footer, master_problems, with_footer
from support import local_of, run_main

MASTER = """\
# Project Memory

## Current Status
Prices are rounded correctly.

## Key Decisions
- Money: Decimal with ROUND_HALF_UP.

## Learnings & Discoveries
- report.py formatted prices itself.

## Evolution & Changes
- float, then Decimal.

## Active Questions
- Should tax be rounded per line?
"""


def session_file(root: Path, sid: str, updated: str, text: str) -> None:
    (root / "sessions" / f"{sid}.md").write_text(
        f"---\ntitle: {text}\ncategory: session_summary\ncreated: '{updated}'\n"
        f"updated: '{updated}'\nrecord_status: active\n---\n"
        f"# {text}\n\n## Context\n{text} context.\n\n## Tracking Points\n- Status: {text}\n"
        "\n## Automatic journal\n- JOURNAL-LINE\n"
    )


def run(capsys, monkeypatch, *argv: str, stdin: str = "") -> tuple[int, str, str]:
    return run_main(capsys, *argv, monkeypatch=monkeypatch, stdin=stdin)


def test_first_material_has_everything_and_the_structure(memory: Path, capsys, monkeypatch) -> None:
    project = memory.parent.parent
    session_file(memory, "s1", "2025-01-01T00:00:00Z", "OLD-SESSION")
    (project / "docs").mkdir()
    (project / "docs" / "arch.md").write_text("# Architecture\nDOC-TEXT\n")
    (project / "_docs").mkdir()
    (project / "_docs" / "notes.md").write_text("UNDERSCORE-DOC\n")
    (memory / "checkpoints" / "latest.md").write_text("# Checkpoint\nCHECKPOINT-TEXT\n")
    assert main(["save", "decision", "--title", "Use Decimal", "--section", "Decision=DEC"]) == 0
    code, out, err = run(capsys, monkeypatch, "synthesize", "--material")
    assert code == 0, err
    assert "No master.md yet" in out
    for fact in ("OLD-SESSION context.", "DOC-TEXT", "UNDERSCORE-DOC", "CHECKPOINT-TEXT", "DEC"):
        assert fact in out, fact
    assert "JOURNAL-LINE" not in out  # the summary stands for the session; journal only if none
    assert out.rstrip().endswith("*Source: [N] conversations, [N] docs*")
    assert "## Learnings & Discoveries" in out


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_material_includes_the_git_log(memory: Path, capsys, monkeypatch) -> None:
    project = memory.parent.parent
    git = ["git", "-C", str(project), "-c", "user.email=t@e.st", "-c", "user.name=t"]
    subprocess.run([*git, "init", "-q"], check=True)
    (project / "a.txt").write_text("a")
    subprocess.run([*git, "add", "a.txt"], check=True)
    subprocess.run([*git, "commit", "-qm", "GIT-COMMIT-SUBJECT"], check=True)
    assert run(capsys, monkeypatch, "start")[0] == 0  # a git repository now: asked again
    code, out, _ = run(capsys, monkeypatch, "synthesize", "--material", "--json")
    assert code == 0
    assert "GIT-COMMIT-SUBJECT" in json.loads(out)["git"]


def test_material_is_incremental_and_puts_the_previous_master_first(
    memory: Path, capsys, monkeypatch
) -> None:
    session_file(memory, "s-old", "2020-01-01T00:00:00Z", "BEFORE-SYNTHESIS")
    session_file(memory, "s-new", "2030-01-01T00:00:00Z", "AFTER-SYNTHESIS")
    (memory / "master.md").write_text(
        MASTER + "\n---\n*Last synthesized: 2021-06-01T00:00:00Z*\n*Source: 1 conversations*\n"
    )
    code, out, _ = run(capsys, monkeypatch, "synthesize", "--material")
    assert code == 0
    assert "New since the last synthesis (2021-06-01T00:00:00Z): 1 session file(s)" in out
    assert "AFTER-SYNTHESIS" in out
    assert "BEFORE-SYNTHESIS" not in out
    assert out.index("Prices are rounded correctly.") < out.index("AFTER-SYNTHESIS")


def test_material_stays_within_the_budget(memory: Path, capsys, monkeypatch) -> None:
    for n in range(30):
        session_file(
            memory, f"s{n:02d}", f"2025-01-{n + 1:02d}T00:00:00Z", f"S{n:02d} " + "x" * 3000
        )
    code, out, _ = run(capsys, monkeypatch, "synthesize", "--material", "--budget", "20000")
    assert code == 0
    body = out.split("=== Required structure")[0]
    assert len(body) < 22_000
    assert "S29" in body  # newest first: the budget drops the oldest
    assert "Left out (over the budget" in body
    assert "sessions/s00.md" in body


def test_save_checks_the_sections(memory: Path, capsys, monkeypatch) -> None:
    broken = MASTER.replace("## Active Questions\n- Should tax be rounded per line?\n", "")
    code, _, err = run(capsys, monkeypatch, "synthesize", "--save", stdin=broken)
    assert code == 5
    assert "'## Active Questions'" in err
    assert not (memory / "master.md").exists()


def test_save_adds_the_footer_keeps_the_previous_version_and_prints_a_diff(
    memory: Path, capsys, monkeypatch
) -> None:
    code, out, err = run(capsys, monkeypatch, "synthesize", "--save", stdin=MASTER)
    assert code == 0, err
    first = (memory / "master.md").read_text()
    assert "\n---\n*Last synthesized: 20" in first
    assert "*Source: 0 conversations, 0 docs*" in first
    assert out.startswith("Created .claude/memory/master.md")
    assert "+## Current Status" in out
    assert not (local_of(memory) / "master.previous.md").exists()
    changed = MASTER.replace("Should tax be rounded per line?", "Ship v2 on Friday?")
    code, out, _ = run(capsys, monkeypatch, "synthesize", "--save", "--json", stdin=changed)
    assert code == 0
    data = json.loads(out)
    assert data["previous"] == str(local_of(memory) / "master.previous.md")
    assert "-- Should tax be rounded per line?" in data["diff"]
    assert "+- Ship v2 on Friday?" in data["diff"]
    assert (local_of(memory) / "master.previous.md").read_text() == first
    assert (memory / "master.md").read_text().count("*Last synthesized:") == 1
    # recall without a query now shows it
    code, out, _ = run(capsys, monkeypatch, "recall")
    assert "Ship v2 on Friday?" in out


def test_footer_date_is_the_clis_and_the_source_line_is_kept() -> None:
    text = MASTER + "\n---\n*Last synthesized: yesterday-ish*\n*Source: 7 conversations, 2 docs*\n"
    out = with_footer(text, Footer("2025-05-05T05:05:05Z", "1 conversations, 0 docs"))
    assert out.endswith(
        "\n---\n*Last synthesized: 2025-05-05T05:05:05Z*\n*Source: 7 conversations, 2 docs*\n"
    )
    assert out.count("---") == 1
    assert with_footer("## Current Status\nx\n", Footer("d", "s")).startswith("# Project Memory")
    assert master_problems(MASTER) == []
    assert master_problems(MASTER.replace("- report.py formatted prices itself.\n", "")) == [
        "'## Learnings & Discoveries' is empty"
    ]
