"""The automatic journal of `sessions/<id>.md`, and what the store derives from the memory files."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memhooks.cli.main import main
from memhooks.curate.summary_material import latest_session_id
from memhooks.store import (
    JOURNAL_HEADING,
    MemoryPaths,
    UnsafePathError,
    append_journal,
    journal_part,
    parse_text,
)


def test_a_new_session_file_gets_frontmatter_and_one_journal(tmp_path: Path) -> None:
    paths = MemoryPaths.for_project(tmp_path)
    Path(paths.sessions).mkdir(parents=True)
    append_journal(paths, "s-1", "- 10:00 first")
    append_journal(paths, "s-1", "- 10:05 second")
    text = (Path(paths.sessions) / "s-1.md").read_text(encoding="utf-8")
    raw = parse_text(text)
    assert raw.meta["category"] == "session_summary"
    assert raw.meta["session_id"] == "s-1"
    assert text.count(JOURNAL_HEADING) == 1
    assert text.index("first") < text.index("second")
    assert journal_part(raw.body).startswith(JOURNAL_HEADING)


def test_a_summary_above_the_journal_is_kept(tmp_path: Path) -> None:
    paths = MemoryPaths.for_project(tmp_path)
    folder = Path(paths.sessions)
    folder.mkdir(parents=True)
    (folder / "s-2.md").write_text("---\ntitle: S\n---\n## Summary\nDone.\n", encoding="utf-8")
    append_journal(paths, "s-2", "- 11:00 entry")
    text = (folder / "s-2.md").read_text(encoding="utf-8")
    assert "## Summary\nDone." in text
    assert journal_part(text) == f"{JOURNAL_HEADING}\n\n- 11:00 entry\n"


def test_an_entry_is_appended_as_the_rewrite_would_write_it(tmp_path: Path) -> None:
    """A journal as the last write left it gets its entry at the end, the summary above it
    never rewritten (the file is the same file); the bytes are what a rewrite makes, and a
    journal someone edited (a blank line at the end, a CRLF) is rewritten as before."""
    paths = MemoryPaths.for_project(tmp_path)
    folder = Path(paths.sessions)
    folder.mkdir(parents=True)
    journal = folder / "s-3.md"
    journal.write_text(f"---\ntitle: S\n---\n## Summary\nDone.\n\n{JOURNAL_HEADING}\n")
    append_journal(paths, "s-3", "### 10:00\n\n- Asked: one")  # rewritten: heading last
    inode = journal.stat().st_ino
    append_journal(paths, "s-3", "### 10:05\n\n- Asked: two \x1b[2J")
    assert journal.stat().st_ino == inode  # appended, not replaced
    want = f"---\ntitle: S\n---\n## Summary\nDone.\n\n{JOURNAL_HEADING}\n\n### 10:00\n\n"
    want += "- Asked: one\n\n### 10:05\n\n- Asked: two \\u001b[2J\n"
    assert journal.read_text(encoding="utf-8") == want
    for edited in (want + "\n", want.replace("\n", "\r\n")):
        journal.write_bytes(edited.encode())
        append_journal(paths, "s-3", "- three")
        assert journal.stat().st_ino != inode  # replaced
        assert journal.read_text(encoding="utf-8") == want + "\n- three\n"
        inode = journal.stat().st_ino


def test_journal_part_of_a_body_without_one() -> None:
    assert journal_part("## Summary\nonly prose\n") == ""


@pytest.mark.parametrize("session_id", ["../escape", "a/b", "", "x" * 300])
def test_a_hostile_session_id_writes_nothing(tmp_path: Path, session_id: str) -> None:
    paths = MemoryPaths.for_project(tmp_path)
    with pytest.raises(UnsafePathError):
        append_journal(paths, session_id, "- entry")
    assert not any(tmp_path.rglob("*.md"))


def test_latest_session_is_the_most_recently_active() -> None:
    state = {
        "sessions": [
            {"id": "a", "last_activity": "2026-01-02T00:00:00Z"},
            {"id": "b", "started": "2026-01-01T00:00:00Z"},
            "junk",
            {"id": 5},
        ]
    }
    assert latest_session_id(state) == "a"
    assert latest_session_id({"sessions": "nope"}) is None
    assert latest_session_id({}) is None


def test_derived_files_are_a_function_of_the_memory_files(started: Path) -> None:
    """MEMORY.md, the catalog and the stats after a save equal what `rebuild` makes from scratch."""
    assert main(["save", "decision", "--title", "Use SQLite for the cache", "--body", "Fast."]) == 0
    assert main(["save", "constraint", "--title", "No network in tests", "--body", "Offline."]) == 0
    derived = ["MEMORY.md", "MEMORY-archive.md"]
    after_saves = {
        name: (started / name).read_bytes() for name in derived if (started / name).exists()
    }
    index = after_saves["MEMORY.md"].decode("utf-8")
    assert "Use SQLite for the cache" in index
    assert "No network in tests" in index
    (started / "MEMORY.md").unlink()
    assert main(["rebuild"]) == 0
    rebuilt = {n: (started / n).read_bytes() for n in derived if (started / n).exists()}
    assert _without_stamps(rebuilt) == _without_stamps(after_saves)


def _without_stamps(files: dict[str, bytes]) -> dict[str, list[str]]:
    return {
        name: [line for line in data.decode("utf-8").splitlines() if "updated" not in line.lower()]
        for name, data in files.items()
    }


def test_an_append_that_fails_leaves_the_journal_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A short write (a full disk) takes back what it wrote: no half entry for the next
    rewrite to keep; a file with a second hard link is replaced, never written through."""
    from memhooks.store import files

    path = tmp_path / "journal.md"
    path.write_text("kept\n")
    write = os.write
    monkeypatch.setattr(files.os, "write", lambda fd, data: write(fd, data[:3]))
    with pytest.raises(OSError, match="in part only"):
        files.append_text(path, "- a long entry\n", 5)
    monkeypatch.undo()
    assert path.read_text() == "kept\n"
    os.link(path, tmp_path / "twin.md")
    assert files.append_text(path, "- entry\n", 5) is False
    assert (tmp_path / "twin.md").read_text() == "kept\n"
