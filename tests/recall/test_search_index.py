from __future__ import annotations

import sqlite3
import threading
from typing import TYPE_CHECKING
from unittest import mock

import pytest

from memhooks.recall import ranking, search_index
from memhooks.recall.search_index import SearchIndex
from memhooks.recall.search_read import Hit
from memhooks.store import SearchDoc
from support import local_of

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path


def doc(path: str, title: str, body: str = "", tags: tuple[str, ...] = ()) -> SearchDoc:
    return SearchDoc(
        path=path,
        category="decision",
        title=title,
        description="",
        tags=tags,
        body=body,
        updated="2025-01-01",
    )


DOCS = [
    doc(
        "decisions/a.md",
        "Use Redis for the session cache",
        "Sessions expire after a day.",
        ("redis",),
    ),
    doc(
        "decisions/b.md", "Payments go through Stripe", "Invoices are sent by Stripe.", ("stripe",)
    ),
    doc("runbooks/c.md", "Rotate the signing keys", "Run the rotation script monthly.", ("keys",)),
    doc("constraints/d.md", "Mobile screens use Redux", "Reducers stay pure.", ("redux",)),
]


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return local_of(tmp_path) / "search.sqlite3"


def built(db: Path, docs: list[SearchDoc] = DOCS) -> SearchIndex:
    index = SearchIndex(db)
    index.rebuild(docs)
    return index


def test_missing_db_returns_nothing_and_creates_nothing(db: Path) -> None:
    with SearchIndex(db) as index:
        assert index.query("redis session cache") == []
        assert index.count() == 0
    assert not db.exists()
    assert not db.parent.exists()


def test_query_finds_the_relevant_memory(db: Path) -> None:
    with built(db) as index:
        hits = index.query("where do we keep the session cache? redis?")
    assert [h.path for h in hits] == ["decisions/a.md"]
    assert isinstance(hits[0], Hit)
    assert hits[0].title == "Use Redis for the session cache"
    assert hits[0].category == "decision"
    assert hits[0].score > 0


def test_unrelated_prompt_is_silent_at_the_default_floor(db: Path) -> None:
    with built(db) as index:
        assert index.query("write a haiku about Monday mornings") == []
        assert index.query("") == []


def test_min_score_zero_disables_floor_and_limit_caps(db: Path) -> None:
    with built(db) as index:
        assert len(index.query("stripe redis redux keys", min_score=0, limit=10)) == 4
        assert len(index.query("stripe redis redux keys", min_score=0, limit=2)) == 2
        assert index.query("stripe", limit=0) == []
        assert index.query("stripe", min_score=1000.0) == []


def test_upsert_adds_replaces_and_remove_deletes(db: Path) -> None:
    with built(db) as index:
        index.upsert(doc("decisions/e.md", "Adopt Kafka for event streaming"))
        assert index.count() == 5
        assert [h.path for h in index.query("kafka streaming")] == ["decisions/e.md"]
        index.upsert(doc("decisions/e.md", "Adopt NATS for event streaming"))
        assert index.count() == 5
        assert index.query("kafka") == []
        assert [h.path for h in index.query("nats streaming")] == ["decisions/e.md"]
        index.remove("decisions/e.md")
        index.remove("decisions/never-existed.md")
        assert index.count() == 4
        assert index.query("nats streaming") == []


def test_incremental_index_equals_rebuilt_index(tmp_path: Path) -> None:
    rebuilt = built(tmp_path / "one.sqlite3")
    incremental = SearchIndex(tmp_path / "two.sqlite3")
    for d in [*DOCS, doc("x.md", "temporary redis note")]:
        incremental.upsert(d)
    incremental.remove("x.md")
    for prompt in ("redis session", "stripe invoices", "rotate keys monthly", "redux reducers"):
        assert rebuilt.query(prompt, min_score=0) == incremental.query(prompt, min_score=0)
    rebuilt.close()
    incremental.close()


def test_upsert_creates_the_db_when_missing(db: Path) -> None:
    with SearchIndex(db) as index:
        index.upsert(DOCS[0])
        assert index.count() == 1
        assert index.query("redis session cache")[0].path == "decisions/a.md"


def test_rebuild_replaces_everything_and_last_duplicate_wins(db: Path) -> None:
    with built(db) as index:
        index.rebuild([doc("a.md", "first"), doc("a.md", "Graphql gateway")])
        assert index.count() == 1
        assert index.query("redis") == []
        assert [h.path for h in index.query("graphql gateway")] == ["a.md"]
    assert [p.name for p in db.parent.iterdir()] == [db.name]


def test_corrupt_db_queries_empty_and_rebuild_heals(db: Path) -> None:
    db.parent.mkdir(parents=True)
    db.write_bytes(b"this is not a database" * 100)
    with SearchIndex(db) as index:
        assert index.query("redis session cache") == []
        assert index.last_error is not None
        assert index.count() == 0
        with pytest.raises(sqlite3.DatabaseError):
            index.upsert(DOCS[0])
        index.rebuild(DOCS)
        assert index.query("redis session cache")[0].path == "decisions/a.md"


def built_with_version(db: Path, version: int) -> None:
    """An index of these docs, marked as written by a memhooks of another schema version."""
    built(db).close()
    with sqlite3.connect(db) as conn:
        conn.execute(f"PRAGMA user_version = {version}")
    conn.close()


def test_other_schema_version_answers_nothing(db: Path) -> None:
    built_with_version(db, search_index.SCHEMA_VERSION + 1)
    with SearchIndex(db) as index:
        assert index.query("redis session cache") == []
        assert "rebuild" in (index.last_error or "")


def test_an_index_of_another_version_is_made_again_by_the_next_write(db: Path) -> None:
    """An upgrade that bumps SCHEMA_VERSION: the next write starts a new file (the store's
    writer then heals it from the files), instead of failing every write until `rebuild`."""
    built_with_version(db, search_index.SCHEMA_VERSION - 1)
    with SearchIndex(db) as index:
        assert index.query("redis session cache") == []
        index.upsert(DOCS[1])
        assert index.count() == 1
        assert index.query("stripe payments invoices", min_score=0)[0].path == "decisions/b.md"
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == search_index.SCHEMA_VERSION
    conn.close()


def test_leaving_categories_out_reads_an_index_of_category_and_id(db: Path) -> None:
    """drop_categories answers from docs' (category, id) index, not from the wide rows."""
    built(db).close()
    with sqlite3.connect(db) as conn:
        plan = conn.execute(
            "EXPLAIN QUERY PLAN SELECT id FROM docs WHERE category IN (?) AND id IN (?, ?)",
            ["session_summary", 1, 2],
        ).fetchall()
    conn.close()
    assert "COVERING INDEX" in str(plan)


def test_leaving_journals_out_keeps_the_best_of_the_others(db: Path) -> None:
    """The best candidates are mostly journals: drop_categories checks a few at a time until
    it holds `keep` others, and they are the same as when all 200 are checked."""
    from memhooks.recall import search_read

    journals = [
        SearchDoc(
            path=f"sessions/{n:02d}.md",
            category="session_summary",
            title=f"Redis cache session {n}",
            description="",
            tags=("redis",),
            body="redis cache " * (n % 3 + 1),
            updated="2025-01-01",
        )
        for n in range(45)
    ]
    others = [
        doc(f"decisions/{n:02d}.md", f"Decision {n}", "redis " * (n % 4 + 1)) for n in range(15)
    ]
    filler = [doc(f"runbooks/{n:02d}.md", f"Runbook {n}", "rotate the keys") for n in range(80)]
    with built(db, journals + others + filler) as index:
        conn = index._read_connection()
        assert conn is not None
        terms = ["redis", "cach"]
        scores = search_read.rank(conn, terms, search_read.search_stats(conn))
        every, few = dict(scores), dict(scores)
        search_read.drop_categories(conn, every, ("session_summary",))
        search_read.drop_categories(conn, few, ("session_summary",), keep=5)
        assert len(every) == 15
        assert ranking.top_candidates(few, 5) == ranking.top_candidates(every, 5)
        paths = dict(conn.execute("SELECT id, path FROM docs").fetchall())
        hits = index.query("redis cache", limit=5, min_score=0, exclude=("session_summary",))
    assert [h.path for h in hits] == [paths[d] for d in ranking.top_candidates(every, 5)]
    assert all(h.path.startswith("decisions/") for h in hits)


def test_failed_rebuild_keeps_the_old_index(db: Path) -> None:
    with built(db) as index:
        with pytest.raises(RuntimeError):
            index.rebuild(iter_failing(DOCS))
        assert index.count() == 4
        assert index.query("redis session cache")[0].path == "decisions/a.md"
    assert [p.name for p in db.parent.iterdir()] == [db.name]


def iter_failing(docs: list[SearchDoc]) -> Iterator[SearchDoc]:
    yield from docs[:2]
    raise RuntimeError("parse failure")


def test_reader_gives_up_fast_while_a_writer_holds_the_lock(db: Path) -> None:
    built(db).close()
    writer = sqlite3.connect(db, isolation_level=None)
    writer.execute("BEGIN EXCLUSIVE")
    try:
        with SearchIndex(db) as index:
            assert index.query("redis session cache") == []
            assert "locked" in (index.last_error or "")
    finally:
        writer.execute("ROLLBACK")
        writer.close()
    with SearchIndex(db) as index:
        assert index.query("redis session cache")


def test_readers_see_a_complete_index_during_upserts(db: Path) -> None:
    built(db).close()
    errors: list[str] = []
    stop = threading.Event()

    def read() -> None:
        while not stop.is_set():
            with SearchIndex(db) as index:
                hits = index.query("redis session cache")
                if hits and hits[0].path != "decisions/a.md":
                    errors.append(hits[0].path)

    reader = threading.Thread(target=read)
    reader.start()
    with SearchIndex(db) as index:
        for i in range(30):
            index.upsert(doc(f"n{i}.md", f"note {i} about stripe"))
    stop.set()
    reader.join()
    assert errors == []


def test_long_prompts_are_bounded(db: Path) -> None:
    prompt = " ".join(f"word{i}" for i in range(5000)) + " redis session cache"
    with built(db) as index:
        assert index.query(prompt) == []  # past MAX_QUERY_CHARS: only the head is read
        assert index.query("redis session cache " + prompt)[0].path == "decisions/a.md"


def test_frequent_terms_rescore_candidates_only(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ranking, "FULL_POSTINGS_CAP", 1)
    docs = [doc(f"d{i}.md", f"service note {i}", "deploy service") for i in range(6)]
    docs.append(doc("z.md", "Zeppelin service deploy", "zeppelin deploy service"))
    with built(db, docs) as index:
        hits = index.query("zeppelin service deploy", min_score=0)
    assert hits[0].path == "z.md"


def test_a_query_is_bounded_by_its_work_not_by_the_clock() -> None:
    """A runaway statement is interrupted after READ_STEPS steps of work, whatever the time;
    a reader's connection serves query after query however long it was idle or the machine
    busy (a wall-clock deadline made the benchmark's queries fail under load)."""
    from memhooks.recall.search_index import READ_STEPS, bound_work

    conn = sqlite3.connect(":memory:")
    bound_work(conn, READ_STEPS)
    runaway = (
        "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r) SELECT count(*) FROM r"
    )
    with pytest.raises(sqlite3.OperationalError, match="interrupted"):
        conn.execute(runaway).fetchone()
    bound_work(conn, READ_STEPS)
    with mock.patch("time.monotonic", return_value=1e12):  # "hours later"
        assert conn.execute("SELECT 1").fetchone() == (1,)
