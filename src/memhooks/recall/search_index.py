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

try:
    # The C module alone: `sqlite3` adds the dbapi2 layer and `datetime` for date adapters
    # this index never uses (+1.4 ms per prompt, measured). Same API for what we call.
    import _sqlite3 as sqlite3
except ImportError:  # pragma: no cover - a build without the private module
    import sqlite3  # type: ignore[no-redef]

# The write side (`search_write`) is imported by the write methods: the per-prompt hook reads.
from memhooks import TYPE_CHECKING
from memhooks.recall.search_read import MAX_LOOKUP_TERMS, SCHEMA_VERSION, Hit, search
from memhooks.recall.tokenize import query_terms

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from types import TracebackType

    from typing_extensions import Self

    from memhooks.store import SearchDoc

#: Readers wait at most this long for a writer's commit (seconds); then they return no hits.
READ_BUSY_TIMEOUT = 0.05
#: How much sqlite work one query may do, in progress-handler calls of STEP_OPS virtual-machine
#: instructions each: a crafted `.cache/search.sqlite3` must not hang a prompt. Counted, not
#: timed, so a query's fate does not depend on the machine's load: a query of a 10,000-memory
#: store takes 5 steps; 5,000 take about a second on a quiet 2-core machine.
READ_STEPS = 5_000
WRITE_STEPS = 150_000
STEP_OPS = 10_000
_TABLES = frozenset(("meta", "docs", "terms", "postings", "vectors", "background"))
SIDECARS = ("-journal", "-wal", "-shm")
#: Writers hold the store lock; a reader holds its shared lock only for milliseconds.
WRITE_BUSY_TIMEOUT = 5.0
#: SearchIndex(table=...): find the token table where the installer puts it.
DEFAULT_TABLE = "<default>"
#: Only the head of a huge prompt (pasted logs) is tokenized: bounds the per-prompt work.
MAX_QUERY_CHARS = 8000


def read_only_uri(db_file: str) -> str:
    """A `file:` URI opening the database read-only (what Path.as_uri does, without pathlib)."""
    absolute = os.path.abspath(db_file).replace(os.sep, "/")
    if not absolute.startswith("/"):
        absolute = "/" + absolute  # a Windows drive path: file:///C:/...
    escaped = absolute.replace("%", "%25").replace("?", "%3F").replace("#", "%23")
    return f"file://{escaped}?mode=ro"


class SearchIndex:
    """Open lazily: constructing one touches no file, and queries never create one."""

    def __init__(
        self, db_path: str | os.PathLike[str], *, table: str | None = DEFAULT_TABLE
    ) -> None:
        """`table`: the static token-vector table (semantic signals); DEFAULT_TABLE finds it
        in the plugin's data folder, None turns semantic signals off (lexical gate alone)."""
        # A string, not a Path: the per-prompt hook never imports pathlib (~3 ms).
        self.db_file = os.fspath(db_path)
        self._table_arg = table
        #: Why the last query returned nothing for a reason other than no match, for the log.
        self.last_error: str | None = None
        self._reader: sqlite3.Connection | None = None
        self._table: sqlite3.Connection | None = None
        self._writer: sqlite3.Connection | None = None

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    @property
    def table_file(self) -> str | None:
        """The token table's path (None: semantic signals off). Resolved on first use: the
        per-prompt path imports `semantic` only when the gate asks for the prompt's vector."""
        if self._table_arg == DEFAULT_TABLE:
            from memhooks.recall.semantic import table_path

            self._table_arg = table_path()
        return self._table_arg

    def close(self) -> None:
        for conn in (self._reader, self._writer, self._table):
            if conn is not None:
                conn.close()
        self._reader = self._writer = self._table = None

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
        vector = self._prompt_vector(text[:MAX_QUERY_CHARS]) if min_score is None else None
        hits = self._query_once(terms, limit, min_score, exclude, vector)
        if hits is None and self.roll_back_journal():
            self.last_error = None
            hits = self._query_once(terms, limit, min_score, exclude, vector)
        return hits or []

    def _prompt_vector(self, text: str) -> Callable[[], list[float] | None] | None:
        """The prompt's vector, computed only if the gate asks (None: semantic signals off)."""
        if self._table_arg is None:
            return None

        def vector() -> list[float] | None:
            from memhooks.recall.semantic import encode, open_table

            if self._table is None:
                self._table = open_table(self.table_file) if self.table_file else None
            if self._table is None:
                return None
            try:
                return encode(self._table, text)
            except (sqlite3.Error, ValueError, TypeError) as exc:  # a crafted table too
                self.last_error = f"semantic table: {type(exc).__name__}: {exc}"
                return None

        return vector

    def _query_once(
        self,
        terms: list[str],
        limit: int,
        min_score: float | None,
        exclude: tuple[str, ...],
        vector: Callable[[], list[float] | None] | None = None,
    ) -> list[Hit] | None:
        """The hits, or None on an error (kept in last_error)."""
        try:
            conn = self._read_connection()
            if conn is None:
                return []
            bound_work(conn, READ_STEPS)  # per query: a connection serves many
            return search(conn, terms, limit, min_score, exclude, prompt_vector=vector)
        except (sqlite3.Error, ValueError, TypeError) as exc:  # a crafted value too
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
                bound_work(conn, READ_STEPS)
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
            bound_work(conn, READ_STEPS)
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
        bound_work(conn, READ_STEPS)
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

    def upsert(self, doc: SearchDoc) -> None:
        self.upsert_many([doc])

    def upsert_many(self, docs: Iterable[SearchDoc]) -> None:
        """Add or replace these docs in one transaction (an import files hundreds at once;
        a commit each costs a sync each)."""
        from memhooks.recall.search_write import analyze, delete, insert, start_vectors

        pending = [(doc, analyze(doc)) for doc in docs]
        if not pending:
            return
        from memhooks.recall.semantic import Encoder

        encoder = Encoder(self.table_file)

        def change(conn: sqlite3.Connection) -> None:
            start_vectors(conn, encoder)
            for doc, analyzed in pending:
                delete(conn, doc.path)
                insert(conn, doc, analyzed, encoder)

        try:
            self._in_transaction(change)
        finally:
            encoder.close()

    def remove(self, path: str) -> None:
        from memhooks.recall.search_write import delete

        self._in_transaction(lambda conn: delete(conn, path))

    def _in_transaction(self, change: Callable[[sqlite3.Connection], None]) -> None:
        """One write transaction, recalibrating the gate when the store drifted."""
        from memhooks.recall.search_write import calibrate, needs_calibration

        conn = self._write_connection()
        bound_work(conn, WRITE_STEPS)
        # IMMEDIATE takes the write lock up front, so a write never fails halfway on a lock.
        conn.execute("BEGIN IMMEDIATE")
        try:
            change(conn)
            if needs_calibration(conn):
                calibrate(conn)
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    def rebuild(self, docs: Iterable[SearchDoc]) -> None:
        """Replace the index with one of exactly these docs (a later duplicate path wins)."""
        from memhooks.recall.search_write import build
        from memhooks.recall.semantic import Encoder
        from memhooks.store import replace_with_built

        latest = {doc.path: doc for doc in docs}
        self.close()
        # A journal left by a crashed writer belongs to the old file; next to the new one
        # it would be "rolled back" into it and corrupt it. (A symlinked .cache/ is refused.)
        encoder = Encoder(self.table_file)
        try:
            replace_with_built(
                self.db_file,
                lambda tmp_name: build(tmp_name, latest.values(), encoder),
                before_replace=self.db_file + SIDECARS[0],
            )
        finally:
            encoder.close()

    def _write_connection(self) -> sqlite3.Connection:
        if self._writer is None:
            from memhooks.recall.search_write import ensure_schema
            from memhooks.store import discard_derived, makedirs

            makedirs(os.path.dirname(self.db_file))
            if file_problem(self.db_file):
                # Not ours as it is: made again from the files.
                discard_derived(self.db_file, SIDECARS)
            conn = sqlite3.connect(self.db_file, timeout=WRITE_BUSY_TIMEOUT, isolation_level=None)
            bound_work(conn, WRITE_STEPS)
            try:
                if schema_problem(conn) or other_version(conn):
                    conn.close()
                    discard_derived(self.db_file, SIDECARS)
                    conn = sqlite3.connect(
                        self.db_file, timeout=WRITE_BUSY_TIMEOUT, isolation_level=None
                    )
                    bound_work(conn, WRITE_STEPS)
                ensure_schema(conn)
            except sqlite3.Error:
                conn.close()
                raise
            self._writer = conn
        return self._writer


def file_problem(db_file: str) -> str | None:
    """None when the index file may be opened; "" when there is none; else why not (a
    symlink, a FIFO or device, a symlinked folder, or a symlinked journal beside it)."""
    from memhooks.store import UnsafeFileError, check_folders

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


def other_version(conn: sqlite3.Connection) -> bool:
    """An index an older (or newer) memhooks wrote: derived, so made again, not refused."""
    return conn.execute("PRAGMA user_version").fetchone()[0] not in (0, SCHEMA_VERSION)


def bound_work(conn: sqlite3.Connection, steps: int) -> None:
    """Interrupt `conn` once it has done `steps` x STEP_OPS instructions of sqlite work from
    now (until bounded again: each query bounds it): SQLite raises
    OperationalError('interrupted'), and the caller fails open. Work, not time: the same
    query on the same file has the same fate on a busy machine as on a quiet one."""
    done = [0]

    def past() -> int:
        done[0] += 1
        return 1 if done[0] > steps else 0

    conn.set_progress_handler(past, STEP_OPS)
