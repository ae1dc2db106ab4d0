"""The memory categories: folder, naming scheme and index heading. Standard library only."""

from __future__ import annotations

from enum import Enum


class Naming(Enum):
    DATED_SEQUENCE = "dated_sequence"  # decisions/YYYY-MM-DD_NNN_slug.md (seed 000)
    PATH = "path"  # analysis/path_to_file.md (seed 000)
    TIMESTAMP = "timestamp"  # subagent/YYYY-MM-DD_HHMMSS_task.md (seed 000)
    SESSION_ID = "session_id"  # sessions/<session-id>.md (seed 002)
    SLUG = "slug"  # runbooks/<slug>.md and the like (seed 003)


class Category:
    __slots__ = ("folder", "heading", "name", "naming")

    def __init__(self, name: str, folder: str, heading: str, naming: Naming) -> None:
        self.name = name
        self.folder = folder
        self.heading = heading
        self.naming = naming

    def __repr__(self) -> str:
        return f"Category({self.name!r})"


CATEGORIES: tuple[Category, ...] = (
    Category("decision", "decisions", "Decisions", Naming.DATED_SEQUENCE),
    Category("constraint", "constraints", "Constraints", Naming.SLUG),
    Category("runbook", "runbooks", "Runbooks", Naming.SLUG),
    Category("preference", "preferences", "Preferences", Naming.SLUG),
    Category("tech_debt", "tech-debt", "Tech debt", Naming.SLUG),
    Category("analysis", "analysis", "Analyses", Naming.PATH),
    Category("session_summary", "sessions", "Sessions", Naming.SESSION_ID),
    Category("subagent", "subagent", "Sub-agent outputs", Naming.TIMESTAMP),
)

BY_NAME: dict[str, Category] = {c.name: c for c in CATEGORIES}
BY_FOLDER: dict[str, Category] = {c.folder: c for c in CATEGORIES}

ALIASES = {
    "decisions": "decision",
    "constraints": "constraint",
    "runbooks": "runbook",
    "preferences": "preference",
    "tech-debt": "tech_debt",
    "techdebt": "tech_debt",
    "tech_debt": "tech_debt",
    "analyses": "analysis",
    "session": "session_summary",
    "sessions": "session_summary",
    "summary": "session_summary",
    "subagents": "subagent",
}


def resolve(name: str) -> Category:
    """A category from its name, folder or a common alias; KeyError when unknown."""
    key = name.strip().lower()
    key = ALIASES.get(key, key)
    return BY_NAME[key]
