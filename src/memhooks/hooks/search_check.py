"""SessionStart's look at the search index: start the one background rebuild it needs.

The per-prompt hook only reads the index (`.cache/search.sqlite3`, never committed), so an
index that is missing or unusable means no pointers until some command writes. Three cases
are mended here, each by one detached `memhooks rebuild` (install.background_rebuild):

- none at all while memory files are on disk: a fresh clone of a repository whose team
  shares its memory, or a deleted `.cache/`;
- one another memhooks version wrote (its schema version differs): after an upgrade;
- one without memory vectors once the token table is installed: the background install
  often ends minutes after the first memories were saved, and writes add no vectors to an
  index made without them.

The steady state costs two stats and a tiny read: a mark holds the inode of the index last
found fine, and whether vectors were wanted then (a rebuild makes a new file, and an
installed table wants vectors: either is looked at again).
"""

from __future__ import annotations

import os

from memhooks.install.background_rebuild import rebuild_in_background
from memhooks.store import MemoryPaths, Settings, VectorMarks, memory_listing, rebuilding

VECTORS = "the token table is installed: rebuilding for memory vectors"


def check_search_index(paths: MemoryPaths, settings: Settings) -> None:
    from memhooks.recall.search_read import TABLE_VERSION
    from memhooks.recall.semantic import table_path

    db = paths.search_db
    try:
        inode = str(os.lstat(db).st_ino)
    except FileNotFoundError:
        if not rebuilding(paths) and _holds_memories(paths):
            why = "no search index beside the memory files (a fresh clone?): building it"
            rebuild_in_background(paths, why)
        return
    except OSError:
        return
    vectors_wanted = settings.semantic != "off" and os.path.exists(table_path())
    # The mark names what was found fine: this file, with or without the vectors wanted.
    marks = VectorMarks(paths, TABLE_VERSION, inode + ("+vectors" if vectors_wanted else ""))
    if marks.settled():
        return
    state = _index_state(db)
    if state is None:  # busy or unreadable: the next session looks again
        return
    remake, ready, empty = state
    if remake:
        rebuild_in_background(paths, f"{remake}: rebuilding it")
    elif ready or not vectors_wanted:
        marks.record_ready()
    # Empty (its first write gives it vectors) or a table this code cannot read (a rebuild
    # would give no vectors either): nothing to start.
    elif not empty and _table_readable(table_path()):
        rebuild_in_background(paths, VECTORS)


def _holds_memories(paths: MemoryPaths) -> bool:
    """Some category folder holds a memory file (a symlinked folder is not followed out of
    the tree)."""
    return bool(memory_listing(paths))


def _table_readable(path: str) -> bool:
    from memhooks.recall.semantic import open_table

    table = open_table(path)
    if table is None:
        return False
    table.close()
    return True


def _index_state(db: str) -> tuple[str, bool, bool] | None:
    """(why the index must be made again, or ""; it holds vectors of this table version; it
    holds no memory), or None if it could not be read. The readers' own checks first: a
    symlink or a view, trigger or foreign table (a crafted index could hang a query) is made
    again, as the next write would; the queries run under the readers' bound on work."""
    from memhooks.recall.search_index import (
        READ_STEPS,
        bound_work,
        file_problem,
        read_only_uri,
        schema_problem,
    )
    from memhooks.recall.search_read import SCHEMA_VERSION, has_vectors, search_stats

    problem = file_problem(db)
    if problem == "":  # gone meanwhile: the next session looks again
        return None
    if problem is None:
        try:
            import _sqlite3 as sqlite3
        except ImportError:  # pragma: no cover - a build without the private module
            import sqlite3  # type: ignore[no-redef]
        try:
            conn = sqlite3.connect(read_only_uri(db), uri=True, timeout=0.05)
            try:
                bound_work(conn, READ_STEPS)
                version = int(conn.execute("PRAGMA user_version").fetchone()[0])
                if version not in (0, SCHEMA_VERSION):
                    why = f"the search index is version {version}, this memhooks reads"
                    return f"{why} {SCHEMA_VERSION}", False, False
                problem = schema_problem(conn)
                if not problem:
                    return "", has_vectors(conn), search_stats(conn)[0] == 0
            finally:
                conn.close()
        except (sqlite3.Error, ValueError, TypeError):
            return None
    return f"the search index is not one memhooks made ({problem})", False, False
