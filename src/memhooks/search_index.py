# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""The search index: a derived, rebuildable sqlite file of postings, at `.cache/search.sqlite3`.

Why our own postings tables rather than FTS5: FTS5 is not compiled into every Python's
sqlite, and we want to rank ourselves (BM25F over fields, a floor in idf units, a gap rule).
A query reads only the rows of its own terms through primary-key ranges, so its cost follows
the posting lengths of those terms, not the size of the tree.

Concurrency: writers run under the store lock, so there is one writer at a time. Readers
open the file read-only with a short busy timeout and give up with no hits rather than wait.
`rebuild` builds a complete new file beside the old one and swaps it in with os.replace, so a
crash leaves either the old index or the new one; `upsert` and `remove` are one transaction.
"""

from __future__ import annotations

import os
import stat
import time

try:
    # The C module alone: `sqlite3` adds the dbapi2 layer and `datetime` (~3 ms per prompt)
    # for date adapters this index never uses. Same API for what we call.
    import _sqlite3 as sqlite3
except ImportError:  # pragma: no cover - a build without the private module
    import sqlite3  # type: ignore[no-redef]
from collections import Counter

from memhooks import ranking
from memhooks.terms import query_terms, tokens

# Not `from typing import TYPE_CHECKING`: typing costs milliseconds on the per-prompt path.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from pathlib import Path
    from types import TracebackType

    from typing_extensions import Self

#: Bump when the schema, the tokenizer or the stored lengths change: an index with another
#: version answers no queries until `rebuild`, instead of answering wrongly.
SCHEMA_VERSION = 1
#: Readers wait at most this long for a writer's commit (seconds); then they return no hits.
READ_BUSY_TIMEOUT = 0.05
#: Seconds any one query may run: a crafted `.cache/search.sqlite3` must not hang a prompt.
READ_DEADLINE = 1.0
WRITE_DEADLINE = 30.0
_TABLES = frozenset(("meta", "docs", "terms", "postings"))
SIDECARS = ("-journal", "-wal", "-shm")
#: Writers hold the store lock; a reader holds its shared lock only for milliseconds.
WRITE_BUSY_TIMEOUT = 5.0
#: Only the head of a huge prompt (pasted logs) is tokenized: bounds the per-prompt work.
MAX_QUERY_CHARS = 8000
#: Distinct prompt terms looked up at all; keeps the IN list under sqlite's variable limit.
MAX_LOOKUP_TERMS = 256

_SELECT_POSTINGS = "SELECT doc, title, tags, description, body, length FROM postings"
_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value REAL NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS docs (
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL UNIQUE,
    category TEXT NOT NULL,
    title TEXT NOT NULL,
    description TEXT NOT NULL,
    updated TEXT NOT NULL,
    length REAL NOT NULL,
    terms TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS terms (term TEXT PRIMARY KEY, df INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS postings (
    term TEXT NOT NULL,
    doc INTEGER NOT NULL,
    title INTEGER NOT NULL,
    tags INTEGER NOT NULL,
    description INTEGER NOT NULL,
    body INTEGER NOT NULL,
    length REAL NOT NULL,
    PRIMARY KEY (term, doc)
) WITHOUT ROWID;
"""


class IndexedDoc:
    """One memory as the index sees it. A slotted class: dataclasses and typing cost
    milliseconds to import on the per-prompt path."""

    __slots__ = ("body", "category", "description", "path", "tags", "title", "updated")

    def __init__(
        self,
        *,
        path: str,
        category: str,
        title: str,
        description: str,
        tags: tuple[str, ...],
        body: str,
        updated: str,
    ) -> None:
        self.path = path  # relative to the memory root, posix, e.g. "decisions/x.md"
        self.category = category
        self.title = title
        self.description = description
        self.tags = tags
        self.body = body
        self.updated = updated


class Hit:
    __slots__ = ("category", "description", "path", "score", "title")

    def __init__(
        self, *, path: str, title: str, description: str, category: str, score: float
    ) -> None:
        self.path = path
        self.title = title
        self.description = description
        self.category = category
        self.score = score

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Hit) and (self.path, self.score) == (other.path, other.score)

    def __hash__(self) -> int:
        return hash((self.path, self.score))

    def __repr__(self) -> str:
        return f"Hit({self.path!r}, {self.score:.3f})"


#: A document as the index stores it: per-term counts in (title, tags, description, body),
#: and its weighted length.
_Analyzed = tuple[dict[str, tuple[int, int, int, int]], float]


def analyze(doc: IndexedDoc) -> _Analyzed:
    title, tags = Counter(tokens(doc.title)), Counter(tokens(" ".join(doc.tags)))
    description, body = Counter(tokens(doc.description)), Counter(tokens(doc.body))
    fields = {
        term: (title[term], tags[term], description[term], body[term])
        for term in {*title, *tags, *description, *body}
    }
    length = ranking.weighted_length(
        sum(title.values()), sum(tags.values()), sum(description.values()), sum(body.values())
    )
    return fields, length


def read_only_uri(db_file: str) -> str:
    """A `file:` URI opening the database read-only (what Path.as_uri does, without pathlib)."""
    absolute = os.path.abspath(db_file).replace(os.sep, "/")
    if not absolute.startswith("/"):
        absolute = "/" + absolute  # a Windows drive path: file:///C:/...
    escaped = absolute.replace("%", "%25").replace("?", "%3F").replace("#", "%23")
    return f"file://{escaped}?mode=ro"


class SearchIndex:
    """Open lazily: constructing one touches no file, and queries never create one."""

    def __init__(self, db_path: str | os.PathLike[str]) -> None:
        # A string, not a Path: the per-prompt hook never imports pathlib (~6 ms).
        self.db_file = os.fspath(db_path)
        #: Why the last query returned nothing for a reason other than no match, for the log.
        self.last_error: str | None = None
        self._reader: sqlite3.Connection | None = None
        self._writer: sqlite3.Connection | None = None

    @property
    def db_path(self) -> Path:
        """For the write paths, which run on the command path where pathlib is loaded anyway."""
        from pathlib import Path

        return Path(self.db_file)

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        for conn in (self._reader, self._writer):
            if conn is not None:
                conn.close()
        self._reader = self._writer = None

    # Read path: never raises, never creates the file, never waits long.

    def query(
        self,
        text: str,
        *,
        limit: int = 5,
        min_score: float | None = None,
        exclude: tuple[str, ...] = (),
    ) -> list[Hit]:
        """The memories worth pointing at for this prompt, best first; [] when none clear the floor.

        min_score None applies the store's calibrated gate (ranking.gate_floor); 0 disables
        the floor (and the gap). `exclude` names categories never returned (the per-prompt
        hook leaves session journals to `/memory recall`).
        """
        self.last_error = None
        terms = query_terms(text[:MAX_QUERY_CHARS])[:MAX_LOOKUP_TERMS]
        if limit <= 0 or not terms:
            return []
        hits = self._query_once(terms, limit, min_score, exclude)
        if hits is None and self.roll_back_journal():
            self.last_error = None
            hits = self._query_once(terms, limit, min_score, exclude)
        return hits or []

    def _query_once(
        self, terms: list[str], limit: int, min_score: float | None, exclude: tuple[str, ...]
    ) -> list[Hit] | None:
        """The hits, or None on an error (kept in last_error)."""
        try:
            conn = self._read_connection()
            if conn is None:
                return []
            with_deadline(conn, READ_DEADLINE)  # per query: a connection serves many
            return _search(conn, terms, limit, min_score, exclude)
        except sqlite3.Error as exc:
            # Locked by a writer, corrupt, or half-written by another tool: fail open.
            self.last_error = f"{type(exc).__name__}: {exc}"
            self._drop_reader()
            return None

    def roll_back_journal(self) -> bool:
        """A writer killed mid-transaction leaves a hot `-journal` that read-only readers
        cannot roll back, so every search fails until the next write. Open the file
        read-write once: SQLite rolls a hot journal back itself (and leaves alone the journal
        of a writer still at work). True when there was a journal to try."""
        journal = self.db_file + SIDECARS[0]
        if file_problem(self.db_file) is not None or not os.path.isfile(journal):
            return False
        try:
            conn = sqlite3.connect(self.db_file, timeout=READ_BUSY_TIMEOUT)
            try:
                with_deadline(conn, READ_DEADLINE)
                conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
            finally:
                conn.close()
        except sqlite3.Error:
            return False
        return True

    def count(self) -> int:
        try:
            conn = self._read_connection()
            if conn is None:
                return 0
            with_deadline(conn, READ_DEADLINE)
            row = conn.execute("SELECT count(*) FROM docs").fetchone()
        except sqlite3.Error as exc:
            self.last_error = f"{type(exc).__name__}: {exc}"
            self._drop_reader()
            return 0
        return int(row[0])

    def _read_connection(self) -> sqlite3.Connection | None:
        if self._reader is not None:
            return self._reader
        problem = file_problem(self.db_file)
        if problem is not None:
            self.last_error = problem or None
            return None
        uri = read_only_uri(self.db_file)
        conn = sqlite3.connect(uri, uri=True, timeout=READ_BUSY_TIMEOUT)
        with_deadline(conn, READ_DEADLINE)
        try:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            problem = schema_problem(conn)
        except sqlite3.Error:
            conn.close()
            raise
        if version != SCHEMA_VERSION or problem:
            conn.close()
            self.last_error = problem or (
                f"index version {version}, expected {SCHEMA_VERSION}: rebuild"
            )
            return None
        self._reader = conn
        return conn

    def _drop_reader(self) -> None:
        if self._reader is not None:
            self._reader.close()
            self._reader = None

    # Write path: the caller holds the store lock.

    def upsert(self, doc: IndexedDoc) -> None:
        self.upsert_many([doc])

    def upsert_many(self, docs: Iterable[IndexedDoc]) -> None:
        """Add or replace these docs in one transaction (an import files hundreds at once;
        a commit each costs a sync each)."""
        pending = [(doc, analyze(doc)) for doc in docs]
        if not pending:
            return
        conn = self._write_connection()
        with_deadline(conn, WRITE_DEADLINE)
        # IMMEDIATE takes the write lock up front, so a write never fails halfway on a lock.
        conn.execute("BEGIN IMMEDIATE")
        try:
            for doc, analyzed in pending:
                _delete(conn, doc.path)
                _insert(conn, doc, analyzed)
            if _needs_calibration(conn):
                calibrate(conn)
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    def remove(self, path: str) -> None:
        conn = self._write_connection()
        with_deadline(conn, WRITE_DEADLINE)
        conn.execute("BEGIN IMMEDIATE")
        try:
            _delete(conn, path)
            if _needs_calibration(conn):
                calibrate(conn)
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    def rebuild(self, docs: Iterable[IndexedDoc]) -> None:
        """Replace the index with one of exactly these docs (a later duplicate path wins)."""
        import tempfile

        from memhooks.safe_fs import makedirs

        latest = {doc.path: doc for doc in docs}
        self.close()
        makedirs(self.db_path.parent)  # refuses a symlinked .cache/
        fd, tmp_name = tempfile.mkstemp(
            prefix=self.db_path.name + ".", suffix=".tmp", dir=self.db_path.parent
        )
        os.close(fd)
        tmp = self.db_path.parent / os.path.basename(tmp_name)
        try:
            _build(tmp_name, latest.values())
            _fsync(tmp_name)
            # A journal left by a crashed writer belongs to the old file; next to the new one
            # it would be "rolled back" into it and corrupt it.
            self.db_path.with_name(self.db_path.name + "-journal").unlink(missing_ok=True)
            tmp.replace(self.db_path)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise

    def _write_connection(self) -> sqlite3.Connection:
        if self._writer is None:
            from memhooks.safe_fs import makedirs

            makedirs(self.db_path.parent)
            if file_problem(self.db_file):
                _discard_derived(self.db_file)  # not ours as it is: made again from the files
            conn = sqlite3.connect(self.db_path, timeout=WRITE_BUSY_TIMEOUT, isolation_level=None)
            with_deadline(conn, WRITE_DEADLINE)
            try:
                if schema_problem(conn):
                    conn.close()
                    _discard_derived(self.db_file)
                    conn = sqlite3.connect(
                        self.db_path, timeout=WRITE_BUSY_TIMEOUT, isolation_level=None
                    )
                    with_deadline(conn, WRITE_DEADLINE)
                _ensure_schema(conn)
            except sqlite3.Error:
                conn.close()
                raise
            self._writer = conn
        return self._writer


def file_problem(db_file: str) -> str | None:
    """None when the index file may be opened; "" when there is none; else why not (a
    symlink, a FIFO or device, a symlinked folder, or a symlinked journal beside it)."""
    from memhooks.safe_fs import UnsafeFileError, check_folders

    try:
        check_folders(db_file)
        info = os.lstat(db_file)
    except FileNotFoundError:
        return ""
    except (UnsafeFileError, OSError) as exc:
        return str(exc)
    if not stat.S_ISREG(info.st_mode):
        return f"{db_file} is not a regular file: not opened"
    for suffix in SIDECARS:
        if os.path.islink(db_file + suffix):
            return f"{db_file}{suffix} is a symlink: not opened"
    return None


def schema_problem(conn: sqlite3.Connection) -> str:
    """Why this database is not one we made (views, triggers, other tables), or "".

    A view or a trigger can run any query, a recursive one too: only our plain tables (and
    SQLite's own indexes for them) are accepted, and `trusted_schema` is off besides.
    """
    conn.execute("PRAGMA trusted_schema = OFF")
    for kind, name, table in conn.execute("SELECT type, name, tbl_name FROM sqlite_master"):
        if kind == "table" and name in _TABLES:
            continue
        if kind == "index" and str(name).startswith("sqlite_autoindex_") and table in _TABLES:
            continue
        return f"the search index holds a {kind} {name!r} memhooks never makes: rebuild"
    return ""


def with_deadline(conn: sqlite3.Connection, seconds: float) -> None:
    """Interrupt any statement of `conn` still running `seconds` from now (until armed
    again: each query arms it): SQLite raises OperationalError('interrupted'), and the
    caller fails open."""
    deadline = time.monotonic() + seconds

    def past() -> int:
        return 1 if time.monotonic() > deadline else 0

    conn.set_progress_handler(past, 10_000)


def _discard_derived(db_file: str) -> None:
    for name in (db_file, *(db_file + s for s in SIDECARS)):
        if os.path.lexists(name):
            os.unlink(name)  # a symlink is removed, never its target


def _search(
    conn: sqlite3.Connection,
    terms: list[str],
    limit: int,
    min_score: float | None,
    exclude: tuple[str, ...] = (),
) -> list[Hit]:
    stats = _stats(conn)
    scores = _rank(conn, terms, stats)
    if exclude and scores:
        _drop_categories(conn, scores, exclude)
    floor = ranking.gate_floor(stats[2]) if min_score is None else min_score
    gap = ranking.GAP_RATIO if floor > 0 else 0.0
    chosen = ranking.select(scores, limit=limit, floor=floor, gap=gap)
    return _hits(conn, chosen)


def _drop_categories(
    conn: sqlite3.Connection, scores: dict[int, float], exclude: tuple[str, ...]
) -> None:
    """Remove excluded categories from the best candidates (the rest can never be chosen)."""
    best = ranking.top_candidates(scores, ranking.RESCORE_CANDIDATES)
    by_category = _in_list("SELECT id FROM docs WHERE category", len(exclude))
    sql = _in_list(by_category + " AND id", len(best))
    dropped = {doc for (doc,) in conn.execute(sql, [*exclude, *best]).fetchall()}
    kept = {doc: scores[doc] for doc in best if doc not in dropped}
    scores.clear()
    scores.update(kept)


def _rank(
    conn: sqlite3.Connection, terms: list[str], stats: tuple[int, float, float]
) -> dict[int, float]:
    """Every matching document's BM25F score (idf units), before any floor."""
    n_docs, total_length, _ = stats
    if n_docs <= 0:
        return {}
    avg_length = total_length / n_docs
    sql = _in_list("SELECT term, df FROM terms WHERE term", len(terms))
    dfs = dict(conn.execute(sql, terms).fetchall())
    full, common = ranking.plan_query(terms, dfs, n_docs)
    scores: dict[int, float] = {}
    grouped = _postings(conn, full)
    for term in full:
        postings = grouped.get(term, [])
        _score_term(scores, postings, term, df=dfs[term], n_docs=n_docs, avg_length=avg_length)
    candidates = ranking.top_candidates(scores, ranking.RESCORE_CANDIDATES)
    for term in common if candidates else ():
        sql = _in_list(_SELECT_POSTINGS + " WHERE term = ? AND doc", len(candidates))
        rows = conn.execute(sql, [term, *candidates]).fetchall()
        _score_term(scores, rows, term, df=dfs[term], n_docs=n_docs, avg_length=avg_length)
    return scores


def _score_term(
    scores: dict[int, float],
    postings: list[ranking.Posting],
    term: str,
    *,
    df: int,
    n_docs: int,
    avg_length: float,
) -> None:
    ranking.accumulate(
        scores, postings, ranking.query_weight(term), ranking.idf(df, n_docs), avg_length
    )


def _postings(conn: sqlite3.Connection, terms: tuple[str, ...]) -> dict[str, list[ranking.Posting]]:
    grouped: dict[str, list[ranking.Posting]] = {}
    if not terms:
        return grouped
    sql = _in_list(
        "SELECT term, doc, title, tags, description, body, length FROM postings WHERE term",
        len(terms),
    )
    for term, *posting in conn.execute(sql, terms):
        grouped.setdefault(term, []).append(tuple(posting))
    return grouped


def _hits(conn: sqlite3.Connection, chosen: list[tuple[int, float]]) -> list[Hit]:
    if not chosen:
        return []
    ids = [doc for doc, _ in chosen]
    sql = _in_list("SELECT id, path, title, description, category FROM docs WHERE id", len(ids))
    rows = conn.execute(sql, ids).fetchall()
    by_id = {row[0]: row[1:] for row in rows}
    return [
        Hit(path=path, title=title, description=description, category=category, score=score)
        for doc, score in chosen
        if doc in by_id
        for path, title, description, category in (by_id[doc],)
    ]


def _stats(conn: sqlite3.Connection) -> tuple[int, float, float]:
    """(documents, total weighted length, calibration: see `calibrate`)."""
    values = dict(conn.execute("SELECT key, value FROM meta").fetchall())
    return (
        int(values.get("n_docs", 0)),
        float(values.get("total_length", 0.0)),
        float(values.get("calibration", 0.0)),
    )


def calibrate(conn: sqlite3.Connection) -> None:
    """Score the everyday requests of `background` on this store and keep their median best.

    The gate then asks a prompt to beat what unrelated requests reach here, rather than a
    number fitted to some other store. Writers call it; `_needs_calibration` says when.
    """
    from memhooks.background import PROMPTS

    stats = _stats(conn)
    best = []
    for prompt in PROMPTS:
        scores = _rank(conn, query_terms(prompt)[:MAX_LOOKUP_TERMS], stats)
        best.append(max(scores.values(), default=0.0))
    best.sort()
    median = best[len(best) // 2] if best else 0.0
    conn.executemany(
        "INSERT INTO meta (key, value) VALUES (?, ?)"
        " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        [("calibration", median), ("calibrated_docs", stats[0])],
    )


def _needs_calibration(conn: sqlite3.Connection) -> bool:
    """After a write: when the store has drifted from the size it was calibrated at."""
    values = dict(conn.execute("SELECT key, value FROM meta").fetchall())
    n = int(values.get("n_docs", 0))
    at = values.get("calibrated_docs")
    if at is None:
        return True
    drift = abs(n - int(at))
    return drift > 0 and (n < ranking.MIN_IDF_DOCS or drift >= ranking.RECALIBRATE_SHARE * n)


def _in_list(sql: str, count: int) -> str:
    """`sql IN (?, ...)`: placeholders are the only text ever spliced into a statement."""
    return sql + " IN (" + ",".join("?" * count) + ")"


def _ensure_schema(conn: sqlite3.Connection) -> None:
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version not in (0, SCHEMA_VERSION):
        raise sqlite3.DatabaseError(f"index version {version}, expected {SCHEMA_VERSION}: rebuild")
    conn.executescript(_SCHEMA)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def _delete(conn: sqlite3.Connection, path: str) -> None:
    row = conn.execute("SELECT id, length, terms FROM docs WHERE path = ?", (path,)).fetchone()
    if row is None:
        return
    doc_id, length, joined = row
    old_terms = joined.split()
    conn.executemany(
        "DELETE FROM postings WHERE term = ? AND doc = ?", [(t, doc_id) for t in old_terms]
    )
    conn.executemany("UPDATE terms SET df = df - 1 WHERE term = ?", [(t,) for t in old_terms])
    conn.executemany("DELETE FROM terms WHERE term = ? AND df <= 0", [(t,) for t in old_terms])
    conn.execute("DELETE FROM docs WHERE id = ?", (doc_id,))
    _bump_stats(conn, -1, -length)


def _insert(conn: sqlite3.Connection, doc: IndexedDoc, analyzed: _Analyzed) -> None:
    cursor = conn.execute(
        "INSERT INTO docs (path, category, title, description, updated, length, terms)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        _doc_row(doc, analyzed),
    )
    doc_id = cursor.lastrowid
    conn.executemany(
        "INSERT INTO postings VALUES (?, ?, ?, ?, ?, ?, ?)",
        [(term, doc_id, *counts, analyzed[1]) for term, counts in analyzed[0].items()],
    )
    conn.executemany(
        "INSERT INTO terms (term, df) VALUES (?, 1) ON CONFLICT (term) DO UPDATE SET df = df + 1",
        [(term,) for term in analyzed[0]],
    )
    _bump_stats(conn, 1, analyzed[1])


def _doc_row(doc: IndexedDoc, analyzed: _Analyzed) -> tuple[object, ...]:
    """The `docs` columns after the id, as both the incremental and the bulk insert write."""
    terms, length = analyzed
    return (
        doc.path,
        doc.category,
        doc.title,
        doc.description,
        doc.updated,
        length,
        " ".join(terms),
    )


def _bump_stats(conn: sqlite3.Connection, docs: int, length: float) -> None:
    conn.executemany(
        "INSERT INTO meta (key, value) VALUES (?, ?)"
        " ON CONFLICT (key) DO UPDATE SET value = value + excluded.value",
        [("n_docs", docs), ("total_length", length)],
    )


def _build(db_name: str, docs: Iterable[IndexedDoc]) -> None:
    """Write a complete index into a fresh file, fast: nobody else can see it yet."""
    conn = sqlite3.connect(db_name, isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode = OFF")
        conn.execute("PRAGMA synchronous = OFF")
        conn.execute("PRAGMA cache_size = -65536")
        _ensure_schema(conn)
        conn.execute("BEGIN")
        doc_rows: list[tuple[object, ...]] = []
        posting_rows: list[tuple[object, ...]] = []
        df: Counter[str] = Counter()
        total_length = 0.0
        for doc_id, doc in enumerate(docs, start=1):
            analyzed = analyze(doc)
            total_length += analyzed[1]
            df.update(analyzed[0].keys())
            doc_rows.append((doc_id, *_doc_row(doc, analyzed)))
            posting_rows.extend(
                (term, doc_id, *counts, analyzed[1]) for term, counts in analyzed[0].items()
            )
        posting_rows.sort()  # primary-key order makes the b-tree inserts appends
        conn.executemany("INSERT INTO docs VALUES (?, ?, ?, ?, ?, ?, ?, ?)", doc_rows)
        conn.executemany("INSERT INTO postings VALUES (?, ?, ?, ?, ?, ?, ?)", posting_rows)
        conn.executemany("INSERT INTO terms VALUES (?, ?)", sorted(df.items()))
        conn.executemany(
            "INSERT INTO meta VALUES (?, ?)",
            [("n_docs", len(doc_rows)), ("total_length", total_length)],
        )
        calibrate(conn)
        conn.execute("COMMIT")
    finally:
        conn.close()


def _fsync(name: str) -> None:
    fd = os.open(name, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
