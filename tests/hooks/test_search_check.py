"""SessionStart mends a search index the per-prompt hook cannot use: none beside the memory
files (a fresh clone: `.cache/` is never committed), or one another memhooks version wrote.
Until then the hook points at nothing, whatever the memories say."""

from __future__ import annotations

import json
import shutil
import sqlite3
import time
from pathlib import Path

from memhooks.cli.main import main
from memhooks.recall.search_read import SCHEMA_VERSION
from memhooks.store import MemoryPaths, append_journal
from support import local_of, run_hook, wait_for

PROMPT = "which database backs the job queue workers? postgres or redis"


def _session_start(project: Path) -> None:
    payload = {"session_id": "s-1", "cwd": str(project), "source": "startup"}
    assert run_hook("SessionStart", payload, cwd=project).returncode == 0


def _pointers(project: Path) -> str:
    payload = {
        "session_id": "s-1",
        "cwd": str(project),
        "hook_event_name": "UserPromptSubmit",
        "prompt": PROMPT,
    }
    done = run_hook("UserPromptSubmit", payload, cwd=project)
    assert done.returncode == 0
    if not done.stdout.strip():
        return ""
    reply = json.loads(done.stdout)
    return str(reply.get("hookSpecificOutput", {}).get("additionalContext", ""))


def _version(db: Path) -> int:
    conn = sqlite3.connect(db)
    try:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])
    finally:
        conn.close()


def _log(memory: Path) -> str:
    log = local_of(memory) / "memhooks.log"
    return log.read_text(encoding="utf-8") if log.exists() else ""


def _remember(memory: Path) -> str:
    assert (
        main(
            [
                "remember",
                "we decided the job queue workers use Postgres 16 with SKIP LOCKED, not Redis",
                "--category",
                "decision",
            ]
        )
        == 0
    )
    return next((memory / "decisions").glob("*.md")).name


def test_a_fresh_clone_gets_its_search_index_at_session_start(started: Path) -> None:
    project = started.parent.parent
    name = _remember(started)
    assert name in _pointers(project)
    for derived in ("search.sqlite3", "catalog.json"):  # a deleted cache, as a clone had
        (local_of(started) / derived).unlink()
    assert _pointers(project) == ""
    _session_start(project)
    assert wait_for((local_of(started) / "search.sqlite3").exists)
    assert wait_for(lambda: name in _pointers(project))
    assert _log(started).count("fresh clone") == 1
    _session_start(project)
    time.sleep(0.3)
    assert _log(started).count("SessionStart:") == _log(started).count("fresh clone") == 1


def test_an_index_of_another_version_is_made_again_at_session_start(started: Path) -> None:
    project = started.parent.parent
    name = _remember(started)
    db = local_of(started) / "search.sqlite3"
    conn = sqlite3.connect(db)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION - 1}")
    conn.commit()
    conn.close()
    assert _pointers(project) == ""  # the hook reads no index of another version
    _session_start(project)
    assert wait_for(lambda: _version(db) == SCHEMA_VERSION)
    assert wait_for(lambda: name in _pointers(project))
    assert f"version {SCHEMA_VERSION - 1}" in _log(started)


def test_no_memory_and_no_index_starts_nothing(started: Path) -> None:
    project = started.parent.parent
    shutil.rmtree(local_of(started), ignore_errors=True)
    _session_start(project)
    time.sleep(0.3)
    assert "SessionStart:" not in _log(started)
    assert not (local_of(started) / "search.sqlite3").exists()


def test_a_new_trees_first_journal_starts_no_rebuild(started: Path) -> None:
    """`memhooks start` makes the empty index: the journal the hooks write (a memory file
    they do not index) is no fresh clone, and no background rebuild holds the lock that the
    session's hooks wait for."""
    project = started.parent.parent
    assert (local_of(started) / "search.sqlite3").exists()
    append_journal(MemoryPaths(str(started)), "s-0", "### the first turn\n\nparser work\n")
    _session_start(project)
    assert "SessionStart:" not in _log(started)


def test_an_index_found_fine_is_not_opened_again(started: Path) -> None:
    """The steady state: the mark names the index file, so the next session only stats it."""
    project = started.parent.parent
    _remember(started)
    _session_start(project)
    marks = list((local_of(started)).glob("vectors.ok"))
    assert len(marks) == 1
    db = local_of(started) / "search.sqlite3"
    assert marks[0].read_text(encoding="utf-8").split()[-1] == str(db.stat().st_ino)
    _session_start(project)
    assert "SessionStart:" not in _log(started)


def test_a_crafted_index_is_made_again_not_queried(started: Path) -> None:
    """A view (or trigger, or foreign table) can run any query, a recursive one too: the
    session start reads none of the index's tables then, and has it made again."""
    project = started.parent.parent
    name = _remember(started)
    db = local_of(started) / "search.sqlite3"
    conn = sqlite3.connect(db)
    conn.execute("DROP TABLE meta")
    conn.execute(
        "CREATE VIEW meta (key, value) AS WITH RECURSIVE n(i) AS"
        " (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT 'n_docs', i FROM n"
    )
    conn.commit()
    conn.close()
    _session_start(project)  # the view is never queried: no wait on its endless recursion
    assert "not one memhooks made" in _log(started)

    def views() -> int:
        check = sqlite3.connect(db)
        try:
            return int(
                check.execute("SELECT count(*) FROM sqlite_master WHERE type = 'view'").fetchone()[
                    0
                ]
            )
        finally:
            check.close()

    assert wait_for(lambda: views() == 0)
    assert wait_for(lambda: name in _pointers(project))
