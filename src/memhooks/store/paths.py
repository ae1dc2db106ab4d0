"""Where the memory tree lives. Standard library only: the hooks import this.

Hooks ask for plain strings (`paths.file("session")`), so that they never import pathlib
(~6 ms with what it pulls in); the commands and the store use the `Path` properties.
Both come from one table, LAYOUT.
"""

from __future__ import annotations

import os

from memhooks.errors import MemhooksError

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: importing typing costs the hooks ms
if TYPE_CHECKING:
    from pathlib import Path

#: Overrides the project root for tests and scripts; wins over everything else.
ROOT_ENV = "MEMHOOKS_PROJECT_DIR"
#: The tree, relative to the project root, as the briefings and the commands name it.
MEMORY_DIR = ".claude/memory"
TREE_PREFIX = MEMORY_DIR + "/"

#: Every well-known file and folder of a tree, relative to `.claude/memory/`.
LAYOUT = {
    "index": "MEMORY.md",
    "archive": "MEMORY-archive.md",
    "session": "_session.json",
    "config": "config.json",
    "master": "master.md",
    "gitignore": ".gitignore",
    "context": "context",
    "current_task": "context/current-task.md",
    "blockers": "context/blockers.md",
    "progress": "progress",
    "sessions": "sessions",
    "subagent": "subagent",
    "checkpoints": "checkpoints",
    "latest_checkpoint": "checkpoints/latest.md",
    "session_checkpoints": "checkpoints/sessions",  # <session-id>.md: each session's own
    "cache": ".cache",
    "lock": ".cache/store.lock",
    "log": ".cache/memhooks.log",
    "catalog": ".cache/catalog.json",  # derived list of every memory with its index line
    "search_db": ".cache/search.sqlite3",
    "prompts": ".cache/prompts.json",  # the latest prompts, kept for PreCompact
    "offsets": ".cache/offsets.json",  # transcript byte offsets per session
    "reminder": ".cache/reminder.json",  # the status reminder last shown, per session
    "injected": ".cache/injected.json",  # characters each hook injected, per session
    "handoff": ".cache/subagent-pointers.json",  # PreToolUse(Agent) -> SubagentStart
}


_ALNUM = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
_SESSION_ID_CHARS = _ALNUM | {"_", "-"}
MAX_SESSION_ID = 128


class UnsafePathError(MemhooksError, ValueError):
    """A name or path that would resolve outside the memory tree."""


def session_file_stem(session_id: str) -> str:
    """A host session id as a file name; anything else could name a path, so it is refused."""
    if not (
        0 < len(session_id) <= MAX_SESSION_ID
        and session_id[0] in _ALNUM
        and _SESSION_ID_CHARS.issuperset(session_id)
    ):
        raise UnsafePathError(f"not a session id: {session_id!r}")
    return session_id


def project_root(cwd: str | None = None) -> str:
    """The project whose memory we use: the override, the host's project dir, the payload's cwd."""
    for candidate in (os.environ.get(ROOT_ENV), os.environ.get("CLAUDE_PROJECT_DIR"), cwd):
        if candidate:
            return candidate
    return os.getcwd()


def inside(base: str | os.PathLike[str], target: str | os.PathLike[str]) -> bool:
    """`target`'s folder resolves (symlinks followed) inside `base`, and `target` itself is
    not a symlink: the check every hook write makes, without pathlib."""
    if os.path.islink(target):
        return False
    return resolves_inside(base, os.path.dirname(os.fspath(target)))


def resolves_inside(base: str | os.PathLike[str], path: str | os.PathLike[str]) -> bool:
    """`path`, symlinks followed, is `base` or below it: the one containment check."""
    real_base = os.path.realpath(base)
    real = os.path.realpath(path)
    return real == real_base or real.startswith(real_base.rstrip(os.sep) + os.sep)


def _path(text: str) -> Path:
    from pathlib import Path

    return Path(text)


class MemoryPaths:
    """Every well-known path of one memory tree (a plain class: dataclasses cost ~10 ms)."""

    __slots__ = ("base",)

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.base = os.fspath(root)

    @classmethod
    def for_project(cls, project: str | os.PathLike[str]) -> MemoryPaths:
        return cls(os.path.join(os.fspath(project), *MEMORY_DIR.split("/")))

    def file(self, name: str) -> str:
        """A LAYOUT entry as a plain string: what the hooks use."""
        return os.path.join(self.base, *LAYOUT[name].split("/"))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MemoryPaths) and other.base == self.base

    def __hash__(self) -> int:
        return hash(self.base)

    def __repr__(self) -> str:
        return f"MemoryPaths({self.base!r})"

    @property
    def root(self) -> Path:
        return _path(self.base)

    @property
    def index(self) -> Path:
        return _path(self.file("index"))

    @property
    def archive(self) -> Path:
        return _path(self.file("archive"))

    @property
    def session(self) -> Path:
        return _path(self.file("session"))

    @property
    def config(self) -> Path:
        return _path(self.file("config"))

    @property
    def master(self) -> Path:
        return _path(self.file("master"))

    @property
    def gitignore(self) -> Path:
        return _path(self.file("gitignore"))

    @property
    def context(self) -> Path:
        return _path(self.file("context"))

    @property
    def current_task(self) -> Path:
        return _path(self.file("current_task"))

    @property
    def blockers(self) -> Path:
        return _path(self.file("blockers"))

    @property
    def progress(self) -> Path:
        return _path(self.file("progress"))

    @property
    def sessions(self) -> Path:
        return _path(self.file("sessions"))

    @property
    def subagent(self) -> Path:
        return _path(self.file("subagent"))

    @property
    def checkpoints(self) -> Path:
        return _path(self.file("checkpoints"))

    @property
    def latest_checkpoint(self) -> Path:
        return _path(self.file("latest_checkpoint"))

    @property
    def cache(self) -> Path:
        return _path(self.file("cache"))

    @property
    def lock(self) -> Path:
        return _path(self.file("lock"))

    @property
    def log(self) -> Path:
        return _path(self.file("log"))

    @property
    def catalog(self) -> Path:
        return _path(self.file("catalog"))

    @property
    def search_db(self) -> Path:
        return _path(self.file("search_db"))

    @property
    def prompts(self) -> Path:
        return _path(self.file("prompts"))

    @property
    def offsets(self) -> Path:
        return _path(self.file("offsets"))

    def relative(self, path: str | os.PathLike[str]) -> str:
        """A path inside the tree as the index writes it: forward slashes, relative."""
        return os.path.relpath(os.fspath(path), self.base).replace(os.sep, "/")
