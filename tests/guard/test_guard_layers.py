"""The write guard is one layer of two (issue 24, finding 6).

Fifteen plain shell forms wrote into `.claude/memory/` past the guard's parser. Each is now
refused by PreToolUse, and each is also run for real in bash as if it had slipped past,
and then NOTICED AND SETTLED by the next hook, run as the host runs hooks (`python3 -S
<plugin>/hooks/memhooks.py hook <Event>`, JSON on stdin, the project as cwd, the
dependencies found through CLAUDE_PLUGIN_DATA).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from memhooks.guard.write_guard import decide
from support import hook_as_plugin, local_of, run_cli

pytestmark = pytest.mark.skipif(
    sys.platform == "win32" or shutil.which("bash") is None, reason="bash forms"
)

SECRET = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
KEPT = "decisions/2026-01-02_001_use-sqlite.md"
BAD = "---\\ntitle: [unclosed\\n---\\nbody\\n"

# (id, command run from the project root, what the next hook must have settled)
FORMS: list[tuple[str, str, str]] = [
    ("cd -P", "cd -P . && cd .claude/memory && echo x > MEMORY.md", "derived"),
    (
        "cd --",
        f"cd -- .claude/memory && printf -- '{BAD}' > decisions/2026-01-03_001_bad.md",
        "aside",
    ),
    ("backslash-newline", "echo x > .claude/mem\\\nory/MEMORY.md", "derived"),
    (">&", "echo x >& .claude/memory/MEMORY.md", "derived"),
    ("<>", "echo hacked 1<> .claude/memory/MEMORY.md", "derived"),
    ("quoted <<EOF", 'echo "<<EOF"\necho x > .claude/memory/MEMORY.md\nEOF=1', "derived"),
    ("commented <<EOF", "true # <<EOF\necho x > .claude/memory/MEMORY.md\nEOF=1", "derived"),
    ("padding", ": " + " " * 100_001 + "; echo x > .claude/memory/MEMORY.md", "derived"),
    ("~+", "echo x > ~+/.claude/memory/MEMORY.md", "derived"),
    ("${PWD:-x}", 'echo x > "${PWD:-x}/.claude/memory/MEMORY.md"', "derived"),
    ("variable", "d=.claude/memory; echo x > $d/MEMORY.md", "derived"),
    (
        "sort -o",
        f"printf 'token {SECRET}\\n# Sorted\\n' | sort -o .claude/memory/runbooks/sorted.md",
        "redacted",
    ),
    (
        "python3 -c",
        "python3 -c \"open('.claude/memory/runbooks/py.md', 'w')"
        f".write('---\\\\ntitle: Py\\\\n---\\\\nkey {SECRET}\\\\n')\"",
        "redacted",
    ),
    ("find -delete", "find .claude/memory/decisions -name '*.md' -delete", "deleted"),
    ("rm -rf .claude", "rm -rf .claude", "lost"),
]
IDS = [form[0] for form in FORMS]


@pytest.mark.parametrize(("name", "command", "outcome"), FORMS, ids=IDS)
def test_the_guard_refuses_each_form(name: str, command: str, outcome: str) -> None:
    verdict = decide(
        "Bash", {"command": command}, cwd="/proj", memory_base="/proj/.claude/memory", cli="m"
    )
    assert verdict is not None, name
    assert verdict.action == "deny"


# ----------------------------------------------------------- as the host runs the hooks


def _hook(
    event: str, project: Path, data: Path, command: str = "true"
) -> subprocess.CompletedProcess[str]:
    payload = {
        "session_id": "s1",
        "cwd": str(project),
        "hook_event_name": event,
        "tool_name": "Bash",
        "tool_input": {"command": command},
        "tool_use_id": "toolu_1",
        "source": "startup",
    }
    done = hook_as_plugin(event, payload, data, project=project)
    assert done.returncode == 0, done.stderr
    return done


def _context(done: subprocess.CompletedProcess[str]) -> str:
    assert done.stdout, done.stderr
    out = json.loads(done.stdout)
    text = str(out["hookSpecificOutput"]["additionalContext"])
    assert out.get("systemMessage") == text  # the user sees it too
    return text


def _kept_memory(started: Path) -> None:
    saved = run_cli("save", "decision", "--title", "Use SQLite", "--body", "Because it is small.")
    assert saved.returncode == 0, saved.stderr
    (started / KEPT).parent.mkdir(exist_ok=True)
    found = sorted((started / "decisions").glob("*.md"))
    assert found, saved.stdout
    found[0].rename(started / KEPT)
    assert run_cli("rebuild").returncode == 0


@pytest.mark.parametrize(("name", "command", "outcome"), FORMS, ids=IDS)
def test_each_form_that_slips_past_is_noticed_and_settled(
    started: Path, plugin_data: Path, name: str, command: str, outcome: str
) -> None:
    project = started.parent.parent
    _kept_memory(started)
    denied = json.loads(_hook("PreToolUse", project, plugin_data, command).stdout)
    assert denied["hookSpecificOutput"]["permissionDecision"] == "deny", name
    index_before = (started / "MEMORY.md").read_text()
    # It slipped past: bash runs it, then the host runs PostToolUse.
    subprocess.run(["bash", "-c", command], cwd=project, capture_output=True, check=False)
    text = _context(_hook("PostToolUse", project, plugin_data, command))
    if outcome == "derived":
        assert "MEMORY.md is derived" in text
        assert (started / "MEMORY.md").read_text() == index_before
    elif outcome == "aside":
        assert "put aside" in text
        assert not (started / "decisions" / "2026-01-03_001_bad.md").exists()
        aside = list((local_of(started) / "quarantine").iterdir())
        assert [p.read_text() for p in aside] == ["---\ntitle: [unclosed\n---\nbody\n"]
    elif outcome == "redacted":
        assert "redacted" in text
        written = next(p for p in (started / "runbooks").glob("*.md"))
        assert SECRET not in written.read_text()
        assert "[REDACTED" in written.read_text()
        assert SECRET not in (local_of(started) / "catalog.json").read_text()
    elif outcome == "deleted":
        assert f".claude/memory/{KEPT}" in text
        assert "rebuild --recover" in text
        assert run_cli("rebuild", "--recover").returncode == 0
        assert (started / KEPT).is_file()
        assert "Use SQLite" in (started / "MEMORY.md").read_text()
    else:
        assert "was deleted" in text
        assert "rebuild --recover" in text
        assert _hook("PostToolUse", project, plugin_data).stdout == ""  # said once
        assert run_cli("start").returncode == 0
        assert run_cli("rebuild", "--recover").returncode == 0
        assert "Use SQLite" in (started / "MEMORY.md").read_text()


# ------------------------------------------------------------------ what is settled how


def test_nothing_changed_says_nothing(started: Path, plugin_data: Path) -> None:
    project = started.parent.parent
    _kept_memory(started)
    assert _hook("PostToolUse", project, plugin_data).stdout == ""
    (started / "sessions").mkdir(exist_ok=True)
    assert _hook("PostToolUse", project, plugin_data).stdout == ""


def test_a_bash_written_memory_with_a_secret_is_redacted_before_any_injection(
    started: Path, plugin_data: Path
) -> None:
    project = started.parent.parent
    target = started / "runbooks" / "deploy.md"
    target.write_text(f"---\ntitle: Deploy with {SECRET}\n---\n# Deploy\n\nUse {SECRET}.\n")
    text = _context(_hook("PostToolUse", project, plugin_data))
    assert "redacted" in text
    assert SECRET not in target.read_text()
    assert SECRET not in (started / "MEMORY.md").read_text()
    start = _hook("SessionStart", project, plugin_data)
    assert SECRET not in start.stdout
    assert "Deploy with (REDACTED" in (started / "MEMORY.md").read_text()


def test_a_bash_written_file_with_bad_frontmatter_is_put_aside_never_overwritten(
    started: Path, plugin_data: Path
) -> None:
    project = started.parent.parent
    _kept_memory(started)
    good = (started / KEPT).read_text()
    (started / KEPT).write_text("---\ntitle: [broken\n---\n")
    (started / "decisions" / "new.md").write_text("---\ntitle: [broken too\n---\n")
    text = _context(_hook("PostToolUse", project, plugin_data))
    assert "its last known version is back" in text
    assert (started / KEPT).read_text() == good
    assert not (started / "decisions" / "new.md").exists()
    aside = sorted(p.read_text() for p in (local_of(started) / "quarantine").iterdir())
    assert aside == sorted(["---\ntitle: [broken too\n---\n", "---\ntitle: [broken\n---\n"])
    log = (local_of(started) / "memhooks.log").read_text()
    assert "put aside" in log
    status = run_cli("status")
    assert "Put aside: 2 file(s)" in status.stdout


def test_session_start_indexes_a_valid_pull_and_leaves_an_invalid_file_in_place(
    started: Path, plugin_data: Path
) -> None:
    project = started.parent.parent
    _kept_memory(started)
    pulled = started / "decisions" / "2026-01-04_001_from-a-teammate.md"
    pulled.write_text("---\ntitle: Teammate decision\n---\n# Teammate decision\n\nYes.\n")
    broken = started / "decisions" / "2026-01-04_002_conflicted.md"
    broken.write_text("---\n<<<<<<< HEAD\ntitle: a\n=======\ntitle: b\n>>>>>>> x\n---\n")
    done = _hook("SessionStart", project, plugin_data)
    assert "Teammate decision" in (started / "MEMORY.md").read_text()
    assert "Teammate decision" in done.stdout
    assert broken.exists()  # a merge to finish is the user's, not put aside
    assert "2026-01-04_002_conflicted.md is not a valid memory" in done.stdout


def test_a_memory_deleted_by_bash_is_reported_and_recoverable(
    started: Path, plugin_data: Path
) -> None:
    project = started.parent.parent
    _kept_memory(started)
    (started / KEPT).unlink()
    text = _context(_hook("PostToolUse", project, plugin_data))
    assert "deleted behind the store's back" in text
    assert "Use SQLite" not in (started / "MEMORY.md").read_text()
    assert _hook("PostToolUse", project, plugin_data).stdout == ""  # reported once
    recovered = run_cli("rebuild", "--recover", "--json")
    assert json.loads(recovered.stdout)["recovered"] == [KEPT]
    assert "Use SQLite" in (started / "MEMORY.md").read_text()


def test_the_stores_own_deletions_are_not_reported_nor_recovered(
    started: Path, plugin_data: Path
) -> None:
    import datetime as dt

    from memhooks.store import MemoryPaths, kept_copy
    from support import open_store

    project = started.parent.parent
    _kept_memory(started)
    assert kept_copy(MemoryPaths(started), KEPT)
    assert run_cli("retire", KEPT, "--reason", "old").returncode == 0
    later = dt.datetime(2999, 1, 1, tzinfo=dt.timezone.utc)
    assert open_store(started).gc(later) == [KEPT]
    assert kept_copy(MemoryPaths(started), KEPT) is None
    assert _hook("PostToolUse", project, plugin_data).stdout == ""


def test_a_stopped_tree_is_not_reported_as_lost(started: Path, plugin_data: Path) -> None:
    project = started.parent.parent
    _kept_memory(started)
    assert run_cli("stop").returncode == 0
    assert _hook("PostToolUse", project, plugin_data).stdout == ""
    assert _hook("SessionStart", project, plugin_data).stdout == ""
