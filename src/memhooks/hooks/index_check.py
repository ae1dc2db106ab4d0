"""SessionStart's look at the search index: start the one background rebuild it needs.

The per-prompt hook only reads the index (`.cache/search.sqlite3`, never committed), so an
index that is missing or unusable means no pointers until some command writes. Three cases
are mended here, each by one detached `memhooks rebuild` (store.heal):

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

from memhooks.store.categories import CATEGORIES
from memhooks.store.config import Settings
from memhooks.store.heal import VectorMarks
from memhooks.store.paths import MemoryPaths


def check_index(paths: MemoryPaths, settings: Settings) -> None:
    from memhooks.recall.index_read import SCHEMA_VERSION, TABLE_VERSION
    from memhooks.recall.semantic import table_path

    db = paths.file("search_db")
    try:
        inode = str(os.stat(db).st_ino)
    except FileNotFoundError:
        marks = VectorMarks(paths, TABLE_VERSION, "")
        if not marks.rebuilding() and _holds_memories(paths):
            marks.rebuild("no search index beside the memory files (a fresh clone?): building it")
        return
    except OSError:
        return
    vectors_wanted = settings.semantic != "off" and os.path.exists(table_path())
    # The mark names what was found fine: this file, with or without the vectors wanted.
    marks = VectorMarks(paths, TABLE_VERSION, inode + ("+vectors" if vectors_wanted else ""))
    if marks.settled():
        return
    version, ready, empty = _index_state(db)
    if version is None:  # busy or unreadable: the next session looks again
        return
    if version not in (0, SCHEMA_VERSION):
        marks.rebuild(
            f"the search index is version {version}, this memhooks reads "
            f"{SCHEMA_VERSION}: rebuilding it"
        )
    elif ready or not vectors_wanted:
        marks.record_ready()
    # Empty (its first write gives it vectors) or a table this code cannot read (a rebuild
    # would give no vectors either): nothing to start.
    elif not empty and _table_readable(table_path()):
        marks.rebuild()


def _holds_memories(paths: MemoryPaths) -> bool:
    """Some category folder holds a memory file (stops at the first one found; a symlinked
    folder is not followed out of the tree)."""
    for category in CATEGORIES:
        folder = os.path.join(paths.base, category.folder)
        if os.path.islink(folder):
            continue
        try:
            with os.scandir(folder) as entries:
                if any(
                    e.name.endswith(".md") and e.is_file(follow_symlinks=False) for e in entries
                ):
                    return True
        except OSError:
            continue
    return False


def _table_readable(path: str) -> bool:
    from memhooks.recall.semantic import open_table

    table = open_table(path)
    if table is None:
        return False
    table.close()
    return True


def _index_state(db: str) -> tuple[int | None, bool, bool]:
    """(schema version, it holds vectors of this table version, it holds no memory);
    version None if the index could not be read."""
    from memhooks.recall.index_read import SCHEMA_VERSION, has_vectors, index_stats
    from memhooks.recall.search_index import read_only_uri

    try:
        import _sqlite3 as sqlite3
    except ImportError:  # pragma: no cover - a build without the private module
        import sqlite3  # type: ignore[no-redef]
    try:
        conn = sqlite3.connect(read_only_uri(db), uri=True, timeout=0.05)
        try:
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
            if version not in (0, SCHEMA_VERSION):
                return version, False, False
            return version, has_vectors(conn), index_stats(conn)[0] == 0
        finally:
            conn.close()
    except (sqlite3.Error, ValueError, TypeError):
        return None, False, False
