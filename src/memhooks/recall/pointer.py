"""A memory pointed at: its path under `.claude/memory/`, title and description. Pure."""

from __future__ import annotations


class Pointer:
    __slots__ = ("description", "path", "title")

    def __init__(self, path: str, title: str, description: str) -> None:
        self.path = path  # relative to .claude/memory/
        self.title = title
        self.description = description
