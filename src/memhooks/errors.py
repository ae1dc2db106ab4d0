"""The one error base and the exit-code table. Standard library only: every layer raises these.

Each error carries its exit code; `cli.main` turns any `MemhooksError` into one line on stderr
and that code, in one place. The exit-code sentence of docs/commands.md is checked against
`MEANINGS` by a test.
"""

from __future__ import annotations


class Exit:
    """The exit codes, plain ints (an IntEnum costs every hook ~0.2 ms to build)."""

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


#: Every exit code, in order.
CODES: tuple[int, ...] = tuple(
    value for name, value in vars(Exit).items() if name.isupper() and isinstance(value, int)
)

#: What each code means, as `--help` and docs/commands.md say it (the first words of each entry).
MEANINGS: dict[int, str] = {
    Exit.OK: "ok",
    Exit.FAILED: "check failed",
    Exit.USAGE: "usage",
    Exit.NOT_STARTED: "memory not started",
    Exit.MISSING_DEPENDENCIES: "dependencies missing",
    Exit.INVALID_INPUT: "invalid input",
    Exit.CONFLICT: "conflict",
    Exit.NOT_FOUND: "not found",
    Exit.LOCKED: "store locked",
    Exit.REFUSED: "refused",
    Exit.IO_ERROR: "file system error",
    Exit.PYTHON_TOO_OLD: "Python older than 3.10",
}


class MemhooksError(Exception):
    """A refusal the user can act on: a one-line message and the exit code it maps to."""

    code: int = Exit.REFUSED

    def __init__(self, message: str, code: int | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code


class UserError(MemhooksError):
    """Raised by the commands; the code says which kind of refusal it is."""

    code = Exit.INVALID_INPUT
