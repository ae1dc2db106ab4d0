"""Why the store refused a write: each error carries its exit code (`memhooks.errors`)."""

from __future__ import annotations

from memhooks.errors import Exit, MemhooksError


class StoreError(MemhooksError):
    """A write that was refused; the message says why and what to do."""

    code = Exit.REFUSED


class ConflictError(StoreError):
    """Optimistic concurrency: the file changed since the caller read it."""

    code = Exit.CONFLICT


class ResurrectionError(StoreError):
    """A retired slug cannot be created again so soon."""


class DuplicateError(StoreError):
    """`create`'s `unless` check found the memory already there (checked under the lock)."""

    def __init__(self, found: object) -> None:
        super().__init__("a memory like this one exists already")
        self.found = found


class NotFoundError(StoreError):
    code = Exit.NOT_FOUND
