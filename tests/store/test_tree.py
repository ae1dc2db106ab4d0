"""The hooks' writer (SubagentStop) and the store pieces it is made of."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memhooks.continuity.prompts import first_request
from memhooks.recall.search_index import SearchIndex
from memhooks.store import (
    DuplicateError,
    Entry,
    MemoryPaths,
    StateUnreadableError,
    StoreError,
    change_state,
    load_catalog,
)
from support import FIXTURES, hook_writer, local_of, open_store


def test_a_hook_files_a_memory_and_every_derived_file_follows(started: Path) -> None:
    body = "# Explore: auth\n\nTokens live in localStorage; see src/auth.ts:1-2 for the code."
    (started.parent.parent / "src").mkdir()
    (started.parent.parent / "src" / "auth.ts").write_text("a\nb\n", encoding="utf-8")
    entry = hook_writer(started).create(
        "subagent", {"title": "Explore: auth"}, body, agent="Explore"
    )
    assert entry.path.startswith("subagent/")
    assert entry.path.endswith("_explore.md")
    text = (started / entry.path).read_text(encoding="utf-8")
    assert "category: subagent" in text
    assert "src/auth.ts:1-2#" in text  # the citation hasher it was given ran
    assert entry.path in (started / "MEMORY.md").read_text(encoding="utf-8")
    cat = load_catalog(local_of(started) / "catalog.json")
    assert cat is not None
    assert entry.path in cat.entries
    assert cat.entries[entry.path].stamp  # stamped like a command's write
    with SearchIndex(local_of(started) / "search.sqlite3") as index:
        assert [h.path for h in index.query("localStorage tokens", min_score=0)] == [entry.path]
    state = json.loads((local_of(started) / "session.json").read_text(encoding="utf-8"))
    assert state["stats"]["subagentOutputs"] == 1
    assert state["lastMemoryWrite"]


def test_the_hook_writer_and_the_store_name_files_alike(started: Path) -> None:
    from_hook = hook_writer(started).create("decision", {"title": "Use SQLite"}, "")
    from_command = open_store(started).create("decision", {"title": "Use SQLite"}, "").entry
    assert from_hook.path.endswith("_001_use-sqlite.md")
    assert from_command.path.endswith("_002_use-sqlite.md")


def test_unless_and_then_run_under_the_lock(started: Path) -> None:
    writer = hook_writer(started)
    marks: list[str] = []
    writer.create("decision", {"title": "First"}, "", then=lambda: marks.append("done"))
    assert marks == ["done"]
    with pytest.raises(DuplicateError):
        writer.create("decision", {"title": "Second"}, "", unless=lambda: "found")
    assert len(list((started / "decisions").glob("*.md"))) == 1


def test_without_a_catalog_the_hook_refuses_after_the_memory_is_safe(started: Path) -> None:
    (local_of(started) / "catalog.json").unlink()
    marks: list[str] = []
    with pytest.raises(StoreError, match="rebuild"):
        hook_writer(started).create(
            "decision", {"title": "Kept"}, "", then=lambda: marks.append("x")
        )
    assert next(p.name for p in (started / "decisions").glob("*.md")).endswith("_kept.md")
    # On disk, so marked: a re-delivered event finds the mark and files no second copy.
    assert marks == ["x"]
    with pytest.raises(DuplicateError):
        hook_writer(started).create("decision", {"title": "Kept"}, "", unless=lambda: marks)
    assert len(list((started / "decisions").glob("*.md"))) == 1


def test_change_state_writes_back_what_the_change_made(started: Path) -> None:
    path = MemoryPaths(started).session
    assert change_state(path, lambda s: s.setdefault("task", "ship")) == "ship"
    assert json.loads(Path(path).read_text(encoding="utf-8"))["task"] == "ship"
    missing = str(started / "absent.json")
    assert change_state(missing, lambda s: s.update(x=1)) is None
    assert not Path(missing).exists()
    assert change_state(missing, lambda s: s.update(x=1), create=True) is None
    assert json.loads(Path(missing).read_text(encoding="utf-8")) == {"x": 1}
    Path(missing).write_text("{not json", encoding="utf-8")
    with pytest.raises(StateUnreadableError):
        change_state(missing, lambda s: s.update(x=2))
    assert Path(missing).read_text(encoding="utf-8") == "{not json"  # never overwritten


def test_a_sub_agents_task_is_its_transcripts_first_request(tmp_path: Path) -> None:
    real = FIXTURES / "transcripts" / "a2-invoice-config" / "subagents"
    transcript = next(real.glob("agent-*.jsonl"))
    assert first_request(str(transcript), 65_536).startswith("List every process.env access")
    made = tmp_path / "agent.jsonl"
    lines = [
        {"type": "user", "isSidechain": True, "isMeta": True, "message": {"content": "meta"}},
        {
            "type": "user",
            "isSidechain": True,
            "message": {"content": [{"type": "text", "text": "Find the cache"}]},
        },
    ]
    made.write_text("".join(json.dumps(r) + "\n" for r in lines), encoding="utf-8")
    assert first_request(str(made), 65_536) == "Find the cache"
    assert first_request(str(made), 10) == ""  # the request lies past the head read
    assert first_request("", 65_536) == ""
    assert first_request(str(tmp_path / "missing.jsonl"), 65_536) == ""


def test_an_entry_is_a_frozen_value() -> None:
    entry = Entry(path="decisions/a.md", category="decision", title="A", tags=("x",))
    changed = entry.replace(stamp="1:2")
    assert changed.stamp == "1:2"
    assert entry.stamp == ""
    assert changed != entry
    assert entry == Entry.from_dict(entry.as_dict())
    assert entry.as_dict()["tags"] == ("x",)
    with pytest.raises(AttributeError):
        entry.title = "B"  # type: ignore[misc]
