"""The write path: atomic, locked, indexed; nothing lost, nothing outside the tree."""

from __future__ import annotations

import datetime as dt
import json
import multiprocessing
import os
from pathlib import Path

import pytest

from memhooks.store import (
    ConflictError,
    MemoryPaths,
    ResurrectionError,
    Settings,
    Store,
    UnsafePathError,
    contained,
    load_catalog,
    scan_tree,
)
from support import local_of, needs_symlinks, open_store, run_cli


def store_for(root: Path) -> Store:
    return open_store(root)


def test_create_writes_file_index_catalog_and_search(started: Path) -> None:
    store = store_for(started)
    saved = store.create(
        "decision",
        {"title": "Use SQLite", "description": "one file"},
        "# Use SQLite\n\n## Decision\nSQLite in .cache/",
    )
    assert saved.entry.path.startswith("decisions/")
    assert saved.entry.path.endswith("_001_use-sqlite.md")
    assert (
        (started / saved.entry.path)
        .read_text(encoding="utf-8")
        .startswith("---\ntitle: Use SQLite\n")
    )
    index = (started / "MEMORY.md").read_text(encoding="utf-8")
    assert f"- [Use SQLite]({saved.entry.path}) — one file" in index
    cat = load_catalog(MemoryPaths(started).catalog)
    assert cat is not None
    assert saved.entry.path in cat.entries
    from memhooks.recall.search_index import SearchIndex

    with SearchIndex(MemoryPaths(started).search_db) as index_db:
        assert index_db.count() == 1


def test_decisions_number_per_day(started: Path) -> None:
    store = store_for(started)
    day = dt.datetime(2026, 1, 19, 22, 30, tzinfo=dt.timezone.utc)
    names = [
        store.create("decision", {"title": f"Choice {n}"}, "", now=day).entry.path for n in range(3)
    ]
    assert names == [f"decisions/2026-01-19_00{n}_choice-{n - 1}.md" for n in (1, 2, 3)]


def test_analysis_and_subagent_names_follow_seed_000(started: Path) -> None:
    store = store_for(started)
    when = dt.datetime(2026, 1, 19, 22, 30, 5, tzinfo=dt.timezone.utc)
    analysis = store.create(
        "analysis",
        {"title": "Auth service"},
        "",
        source_path="src/services/AuthService.ts",
        now=when,
    )
    assert analysis.entry.path == "analysis/src_services_AuthService.ts.md"
    sub = store.create("subagent", {"title": "Scan"}, "", agent="security-scan", now=when)
    assert sub.entry.path == "subagent/2026-01-19_223005_security-scan.md"


@pytest.mark.parametrize("title", ["../../etc/x", "..", "/etc/passwd", "a/../../b", "C:\\x"])
def test_hostile_titles_stay_inside_the_tree(started: Path, title: str) -> None:
    saved = store_for(started).create("runbook", {"title": title}, "")
    written = (started / saved.entry.path).resolve()
    assert started.resolve() in written.parents
    assert written.parent.name == "runbooks"


def test_hostile_source_path_stays_inside(started: Path) -> None:
    saved = store_for(started).create(
        "analysis", {"title": "x"}, "", source_path="../../../../etc/passwd"
    )
    assert (started / saved.entry.path).resolve().parent == (started / "analysis").resolve()


@needs_symlinks
def test_contained_refuses_escapes_and_symlinks(tmp_path: Path) -> None:
    root = tmp_path / "mem"
    (root / "decisions").mkdir(parents=True)
    outside = tmp_path / "outside"
    outside.mkdir()
    (root / "decisions" / "link").symlink_to(outside)
    for bad in ("../x.md", "/etc/passwd", "decisions/../../x.md", "decisions/link/x.md", ""):
        with pytest.raises(UnsafePathError):
            contained(root, bad)
    assert contained(root, "decisions/ok.md") == root / "decisions" / "ok.md"


def test_update_with_stale_hash_is_refused(started: Path) -> None:
    store = store_for(started)
    saved = store.create("constraint", {"title": "No network in CI"}, "# No network in CI\n\nbody")
    _, _, digest = store.read(saved.entry.path)
    store.update(saved.entry.path, {"description": "first"}, None, expected_hash=digest)
    before = (started / saved.entry.path).read_bytes()
    with pytest.raises(ConflictError):
        store.update(saved.entry.path, {"description": "second"}, None, expected_hash=digest)
    assert (started / saved.entry.path).read_bytes() == before


def test_retire_keeps_file_and_blocks_resurrection(started: Path) -> None:
    store = store_for(started)
    saved = store.create("preference", {"title": "Tabs not spaces"}, "")
    store.set_record_status(saved.entry.path, "retired", "user asked to forget")
    text = (started / saved.entry.path).read_text(encoding="utf-8")
    assert "record_status: retired" in text
    assert "retired_reason: user asked to forget" in text
    assert saved.entry.path not in (started / "MEMORY.md").read_text(encoding="utf-8")
    with pytest.raises(ResurrectionError):
        store.create("preference", {"title": "Tabs not spaces"}, "")
    store.set_record_status(saved.entry.path, "active", "")
    assert saved.entry.path in (started / "MEMORY.md").read_text(encoding="utf-8")


def test_gc_deletes_only_retired_past_grace(started: Path) -> None:
    store = store_for(started)
    old = store.create("tech_debt", {"title": "Old hack"}, "")
    kept = store.create("tech_debt", {"title": "Recent hack"}, "")
    archived = store.create("tech_debt", {"title": "Archived hack"}, "")
    long_ago = dt.datetime.now(dt.timezone.utc) - dt.timedelta(days=40)
    store.set_record_status(old.entry.path, "retired", "done", now=long_ago)
    store.set_record_status(kept.entry.path, "retired", "done")
    store.set_record_status(archived.entry.path, "archived", "history", now=long_ago)
    assert store.gc() == [old.entry.path]
    assert not (started / old.entry.path).exists()
    assert (started / kept.entry.path).exists()
    assert (started / archived.entry.path).exists()


def test_session_rolling_window_retires_oldest(started: Path) -> None:
    store = store_for(started)
    base = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)
    for n in range(7):
        store.write_session_file(
            f"session-{n}",
            {"title": f"Session {n}"},
            f"# Session {n}",
            now=base + dt.timedelta(hours=n),
        )
    cat = load_catalog(MemoryPaths(started).catalog)
    assert cat is not None
    active = sorted(e.path for e in cat.active() if e.category == "session_summary")
    assert active == [f"sessions/session-{n}.md" for n in range(2, 7)]
    assert "record_status: retired" in (started / "sessions/session-0.md").read_text(
        encoding="utf-8"
    )


def test_summary_rewrite_keeps_the_journal(started: Path) -> None:
    store = store_for(started)
    journal = "## Automatic journal\n\n- 10:00 prompt: fix the slugs\n"
    target = started / "sessions" / "abc.md"
    target.write_text(
        "---\ntitle: Session abc\ncategory: session_summary\n---\n\n" + journal, encoding="utf-8"
    )
    store.write_session_file("abc", {"title": "Fixed slugs"}, "# Fixed slugs\n\n## Context\nx")
    text = target.read_text(encoding="utf-8")
    assert "# Fixed slugs" in text
    assert "- 10:00 prompt: fix the slugs" in text
    with pytest.raises(UnsafePathError):
        store.write_session_file("../../evil", {"title": "x"}, "x")


def test_corrupt_file_is_reported_and_left_byte_identical(started: Path) -> None:
    store = store_for(started)
    store.create("decision", {"title": "Good one"}, "body")
    bad = started / "decisions" / "2020-01-01_001_bad.md"
    payload = b"---\ntitle: [unclosed\n: : :\n---\nbody \xff\xfe"
    bad.write_bytes(payload)
    mtime = bad.stat().st_mtime_ns
    from memhooks.cli.main import main

    assert main(["rebuild", "--json"]) == 1
    assert bad.read_bytes() == payload
    assert bad.stat().st_mtime_ns == mtime
    result = scan_tree(MemoryPaths(started))
    assert [p for p, _ in result.problems] == ["decisions/2020-01-01_001_bad.md"]


def test_rebuild_from_files_alone_reproduces_the_index(started: Path) -> None:
    store = store_for(started)
    for n in range(30):
        store.create(
            ["decision", "runbook", "constraint"][n % 3],
            {"title": f"Memory {n}", "description": f"about {n}", "tags": ["t"]},
            f"# Memory {n}\n\nbody {n}",
        )
    paths = MemoryPaths(started)
    before = Path(paths.index).read_text(encoding="utf-8")
    Path(paths.index).unlink()
    Path(paths.catalog).unlink()
    Path(paths.search_db).unlink()
    from memhooks.cli.main import main

    assert main(["rebuild"]) == 0
    assert Path(paths.index).read_text(encoding="utf-8") == before


def _writer(root: str, worker: int, count: int) -> None:
    os.environ["MEMHOOKS_PROJECT_DIR"] = str(Path(root).parent.parent)
    store = open_store(Path(root), lock_timeout=120)
    for n in range(count):
        store.create(
            ["decision", "runbook", "constraint", "preference"][n % 4],
            {"title": f"Worker {worker} memory {n}", "tags": [f"w{worker}"]},
            f"# Worker {worker} memory {n}\n\nwritten concurrently",
        )


def test_eight_concurrent_writers_lose_nothing(started: Path) -> None:
    context = multiprocessing.get_context("spawn")
    workers = [context.Process(target=_writer, args=(str(started), w, 50)) for w in range(8)]
    for process in workers:
        process.start()
    for process in workers:
        process.join(300)
        assert process.exitcode == 0
    files = sorted(
        p
        for p in started.glob("*/*.md")
        if p.parent.name not in ("context", "progress", "checkpoints")
    )
    assert len(files) == 400
    cat = load_catalog(MemoryPaths(started).catalog)
    assert cat is not None
    assert len(cat.entries) == 400
    assert set(cat.entries) == {str(p.relative_to(started).as_posix()) for p in files}
    assert not list(started.rglob("*.tmp"))
    rebuilt = scan_tree(MemoryPaths(started))
    assert set(rebuilt.catalog.entries) == set(cat.entries)
    state = json.loads((local_of(started) / "session.json").read_text(encoding="utf-8"))
    assert state["stats"]["memories"] == 400


def test_retention_retires_old_memories_then_gc_deletes_them(started: Path) -> None:
    store = open_store(started, Settings(categories={"runbook": {"retention_days": 7}}))
    long_ago = dt.datetime.now(dt.timezone.utc) - dt.timedelta(days=10)
    old = store.create("runbook", {"title": "Old runbook"}, "", now=long_ago)
    fresh = store.create("runbook", {"title": "Fresh runbook"}, "")
    forever = store.create("decision", {"title": "Kept decision"}, "", now=long_ago)
    assert store.expire(dry_run=True) == [old.entry.path]
    assert store.expire() == [old.entry.path]
    text = (started / old.entry.path).read_text(encoding="utf-8")
    assert "record_status: retired" in text
    assert "categories.runbook.retention_days" in text
    assert fresh.entry.path in (started / "MEMORY.md").read_text(encoding="utf-8")
    assert forever.entry.path in (started / "MEMORY.md").read_text(encoding="utf-8")
    later = dt.datetime.now(dt.timezone.utc) + dt.timedelta(days=31)
    assert store.gc(now=later) == [old.entry.path]


def test_a_disabled_category_refuses_saves(started: Path) -> None:
    (started / "config.json").write_text(
        json.dumps({"categories": {"preference": {"enabled": False}}}), encoding="utf-8"
    )
    done = run_cli("save", "preference", "--title", "Tabs")
    assert done.returncode == 9
    assert "categories.preference.enabled" in done.stderr
    assert not list((started / "preferences").glob("*.md"))


def test_gc_never_deletes_a_file_that_is_active_again_on_disk(started: Path) -> None:
    """A teammate restored it and you pulled: the stale catalog must not get it deleted."""
    store = store_for(started)
    saved = store.create("decision", {"title": "Keep me"}, "# Keep me\n\nbody")
    active_text = (started / saved.entry.path).read_bytes()
    long_ago = dt.datetime.now(dt.timezone.utc) - dt.timedelta(days=40)
    store.set_record_status(saved.entry.path, "retired", "gone", now=long_ago)
    (started / saved.entry.path).write_bytes(active_text)  # as `git pull` would
    assert store.gc() == []
    assert (started / saved.entry.path).read_bytes() == active_text
    assert saved.entry.path in (started / "MEMORY.md").read_text(encoding="utf-8")


def test_files_from_git_reach_the_index_and_search_on_the_next_write(started: Path) -> None:
    store = store_for(started)
    store.create("decision", {"title": "Local one"}, "body")
    pulled = started / "runbooks" / "redis-failover.md"
    pulled.write_text(
        "---\ntitle: Redis failover\ncategory: runbook\n---\n# Redis failover\n"
        "\n## Steps\n1. promote the replica\n",
        encoding="utf-8",
    )
    gone = store.create("constraint", {"title": "Deleted upstream"}, "body")
    (started / gone.entry.path).unlink()
    store.create("preference", {"title": "Another local one"}, "body")
    index = (started / "MEMORY.md").read_text(encoding="utf-8")
    assert "runbooks/redis-failover.md" in index
    assert gone.entry.path not in index
    from memhooks.recall.search_index import SearchIndex

    with SearchIndex(MemoryPaths(started).search_db) as search:
        assert [h.path for h in search.query("redis replica failover", min_score=0)][:1] == [
            "runbooks/redis-failover.md"
        ]


def test_a_fresh_clone_gets_its_search_index_back_on_start(started: Path) -> None:
    store = store_for(started)
    store.create("runbook", {"title": "Rotate the CDN token"}, "# Rotate the CDN token\n\nask ops")
    paths = MemoryPaths(started)
    Path(paths.search_db).unlink()
    Path(paths.catalog).unlink()  # `.cache/` is not committed
    assert run_cli("start").returncode == 0
    from memhooks.recall.search_index import SearchIndex

    with SearchIndex(paths.search_db) as search:
        assert search.count() == 1


def test_a_file_found_behind_our_back_is_not_a_memory_write(started: Path) -> None:
    """`lastMemoryWrite` (the Stop hook's save nudge) moves when memhooks writes a memory,
    not when a refresh finds one a `git pull` brought."""
    store = store_for(started)
    saved = store.create("decision", {"title": "Use SQLite"}, "SQLite in .cache/")
    session = Path(MemoryPaths(started).session)
    state = json.loads(session.read_text(encoding="utf-8"))
    state["lastMemoryWrite"] = "2020-01-01T00:00:00Z"
    session.write_text(json.dumps(state), encoding="utf-8")
    pulled = started / "decisions" / "2026-01-02_001_pulled.md"
    pulled.write_text((started / saved.entry.path).read_text(encoding="utf-8"), encoding="utf-8")
    store.refresh()
    cat = load_catalog(MemoryPaths(started).catalog)
    assert cat is not None
    assert "decisions/2026-01-02_001_pulled.md" in cat.entries
    state = json.loads(session.read_text(encoding="utf-8"))
    assert state["lastMemoryWrite"] == "2020-01-01T00:00:00Z"


def test_memory_md_holds_the_configured_line_cap(started: Path) -> None:
    """The store renders MEMORY.md with the settings' line cap (index.max_lines)."""
    from memhooks.store import NewMemory

    store = open_store(started, Settings(index_max_lines=20))
    items = [NewMemory("decision", {"title": f"Short {n}"}, f"body {n}") for n in range(30)]
    store.create_many(items)
    lines = (started / "MEMORY.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 20
    assert "older entries are not shown here (index cap: 20 lines" in lines[-1]
