"""memhooks: a memory for Claude Code that survives compaction and the end of a session."""

__version__ = "0.1.0"

#: `if TYPE_CHECKING:` holds the imports only the type checker reads. Not
#: `typing.TYPE_CHECKING`: importing typing costs every hook process milliseconds, and this
#: package is loaded first anyway. mypy and ruff take any name TYPE_CHECKING as the flag.
TYPE_CHECKING = False
