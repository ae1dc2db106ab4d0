"""One user-facing error type, turned into a one-line message and an exit code in one place."""

from __future__ import annotations

from enum import IntEnum


class Exit(IntEnum):
    OK = 0
    FAILED = 1  # a check found problems (doctor, rebuild with unparsable files)
    USAGE = 2  # argparse's own code for bad arguments
    NOT_STARTED = 3  # no memory tree here, or it is stopped where that matters
    MISSING_DEPENDENCIES = 4
    INVALID_INPUT = 5
    CONFLICT = 6  # optimistic concurrency: the file changed since it was read
    NOT_FOUND = 7
    LOCKED = 8
    REFUSED = 9  # unsafe path, anti-resurrection, unreadable state file
    IO_ERROR = 10  # the file system refused: a read-only tree, a full disk, no permission
    PYTHON_TOO_OLD = 11  # set by the launcher, which cannot import this module on old Pythons


class UserError(Exception):
    def __init__(self, message: str, code: Exit = Exit.INVALID_INPUT) -> None:
        super().__init__(message)
        self.code = code
