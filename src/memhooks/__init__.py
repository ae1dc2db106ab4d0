"""memhooks: a memory for Claude Code that survives compaction and the end of a session."""

__version__ = "0.1.0"

#: `if TYPE_CHECKING:` holds the imports only the type checker reads. Not
#: `typing.TYPE_CHECKING`: importing typing costs the per-prompt hook ~3 ms (+13% of its CPU
#: time, measured; its budget has ~3 ms to spare), and this package is loaded first anyway.
#: mypy, ruff and IDEs take any name TYPE_CHECKING as the flag.
TYPE_CHECKING = False
