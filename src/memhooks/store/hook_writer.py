"""The hooks' way to file a new memory: `HookWriter`. Standard library only, and none of
dataclasses, typing, pathlib, datetime or contextlib: SubagentStop runs it on the hot path.

It takes the quick lock (`locking.quick_lock`), names and writes the file as the commands'
`Store` does (`new_file`), and settles the derived files with what the catalog says: no scan
of the tree, no frontmatter parsing, no rolling window. Files changed behind our back and
an index that needs healing are left to the next command. Without a catalog it refuses
(run `memhooks rebuild`), after the memory itself is safely on disk and marked filed.
"""

from __future__ import annotations

from memhooks import TYPE_CHECKING
from memhooks.store.derived import DerivedFiles
from memhooks.store.locking import quick_lock
from memhooks.store.new_file import file_new
from memhooks.store.write_errors import DuplicateError, StoreError
from memhooks.text.clock import iso

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from memhooks.store.catalog import Entry
    from memhooks.store.config import Settings
    from memhooks.store.derived import SearchFactory
    from memhooks.store.new_file import CiteHasher
    from memhooks.store.paths import MemoryPaths

#: The hooks' usual wait for the lock: a hook skips its write rather than hold up a turn.
LOCK_TIMEOUT = 0.5


class HookWriter:
    __slots__ = ("_cite", "_lock_timeout", "derived", "paths")

    def __init__(
        self,
        paths: MemoryPaths,
        settings: Settings,
        *,
        search: SearchFactory,
        cite: CiteHasher,
        lock_timeout: float = LOCK_TIMEOUT,
    ) -> None:
        self.paths = paths
        self.derived = DerivedFiles(paths, settings, search)
        self._cite = cite
        self._lock_timeout = lock_timeout

    def create(
        self,
        category: str,
        meta: dict[str, Any],
        body: str,
        *,
        agent: str | None = None,
        session_id: str | None = None,
        unless: Callable[[], object] | None = None,
        then: Callable[[], None] | None = None,
    ) -> Entry:
        """File a new memory under the lock; LockTimeoutError when the lock stays taken.

        Under the lock, before anything is written, `unless()` may find the memory already
        there: then nothing is written and DuplicateError carries what it found. `then()`
        runs under the lock once the memory and its derived files are written (a dedupe
        marker set only once the memory is safely on disk).
        """
        with quick_lock(self.paths.lock, self._lock_timeout):
            found = unless() if unless is not None else None
            if found:
                raise DuplicateError(found)
            entry = file_new(
                self.paths,
                category,
                meta,
                body,
                iso(),
                cite=self._cite,
                session_id=session_id,
                agent=agent,
            )
            cat = self.derived.load_catalog()
            if cat is None:
                # The memory is on disk (the next command's reconcile or `rebuild` catalogs
                # it): mark it filed, or a re-delivered event would file it a second time.
                if then is not None:
                    then()
                raise StoreError("the catalog is missing or stale; run `memhooks rebuild`")
            changed = self.derived.record(cat, [entry], [])
            self.derived.settle(cat, changed, [], bodies={entry.path: body}, now=None)
            if then is not None:
                then()
        return entry
