"""memhooks: a memory for Claude Code that survives compaction and the end of a session."""

__version__ = "0.1.0"
