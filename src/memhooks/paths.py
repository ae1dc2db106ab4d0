"""Where the memory tree lives. Standard library only: the hooks import this."""

from __future__ import annotations

import os
from pathlib import Path

#: Overrides the project root for tests and scripts; wins over everything else.
ROOT_ENV = "MEMHOOKS_PROJECT_DIR"
MEMORY_DIRNAME = Path(".claude") / "memory"


def project_root(cwd: str | None = None) -> Path:
    """The project whose memory we use: the override, the host's project dir, the payload's cwd."""
    for candidate in (os.environ.get(ROOT_ENV), os.environ.get("CLAUDE_PROJECT_DIR"), cwd):
        if candidate:
            return Path(candidate)
    return Path.cwd()


class MemoryPaths:
    """Every well-known path of one memory tree (a plain class: dataclasses cost ~10 ms)."""

    __slots__ = ("root",)

    def __init__(self, root: Path) -> None:
        self.root = root

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MemoryPaths) and other.root == self.root

    def __hash__(self) -> int:
        return hash(self.root)

    def __repr__(self) -> str:
        return f"MemoryPaths({self.root!r})"

    @classmethod
    def for_project(cls, project: Path) -> MemoryPaths:
        return cls(project / MEMORY_DIRNAME)

    @property
    def index(self) -> Path:
        return self.root / "MEMORY.md"

    @property
    def archive(self) -> Path:
        return self.root / "MEMORY-archive.md"

    @property
    def session(self) -> Path:
        return self.root / "_session.json"

    @property
    def config(self) -> Path:
        return self.root / "config.json"

    @property
    def master(self) -> Path:
        return self.root / "master.md"

    @property
    def gitignore(self) -> Path:
        return self.root / ".gitignore"

    @property
    def context(self) -> Path:
        return self.root / "context"

    @property
    def current_task(self) -> Path:
        return self.context / "current-task.md"

    @property
    def blockers(self) -> Path:
        return self.context / "blockers.md"

    @property
    def progress(self) -> Path:
        return self.root / "progress"

    @property
    def sessions(self) -> Path:
        return self.root / "sessions"

    @property
    def subagent(self) -> Path:
        return self.root / "subagent"

    @property
    def checkpoints(self) -> Path:
        return self.root / "checkpoints"

    @property
    def latest_checkpoint(self) -> Path:
        return self.checkpoints / "latest.md"

    @property
    def cache(self) -> Path:
        return self.root / ".cache"

    @property
    def lock(self) -> Path:
        return self.cache / "store.lock"

    @property
    def pending(self) -> Path:
        """Markers for files written without touching the catalog (the Stop hook's journals)."""
        return self.cache / "pending"

    @property
    def log(self) -> Path:
        return self.cache / "memhooks.log"

    @property
    def catalog(self) -> Path:
        """Derived list of every memory with its index line: what the hooks read."""
        return self.cache / "catalog.json"

    @property
    def search_db(self) -> Path:
        return self.cache / "search.sqlite3"

    @property
    def prompts(self) -> Path:
        """The latest prompts, kept by UserPromptSubmit for PreCompact."""
        return self.cache / "prompts.json"

    @property
    def offsets(self) -> Path:
        """Transcript byte offsets per session, for incremental reading."""
        return self.cache / "offsets.json"

    def relative(self, path: Path) -> str:
        """A path inside the tree as the index writes it: forward slashes, relative."""
        return path.relative_to(self.root).as_posix()
