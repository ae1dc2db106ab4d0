"""Where the memory tree lives. Standard library only: the hooks import this.

One API: every well-known path of a tree is a `str` attribute of `MemoryPaths`
(`paths.session`, `paths.base` for the tree itself), made once from one table (`__init__`).
Strings, because the hooks must never import pathlib (~6 ms with what it pulls in); code
that wants a `Path` wraps one (`Path(paths.index)`).
"""

from __future__ import annotations

import os

from memhooks.errors import MemhooksError

#: Overrides the project root for tests and scripts; wins over everything else.
ROOT_ENV = "MEMHOOKS_PROJECT_DIR"
#: The tree, relative to the project root, as the briefings and the commands name it.
MEMORY_DIR = ".claude/memory"
TREE_PREFIX = MEMORY_DIR + "/"


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


def command_project_root() -> str:
    """The project a command works on: the override, the host's project dir, else the one
    `discover_project` finds from the current directory (hooks get the host's; commands are
    also run by hand, from any folder of a checkout)."""
    for candidate in (os.environ.get(ROOT_ENV), os.environ.get("CLAUDE_PROJECT_DIR")):
        if candidate:
            return candidate
    return discover_project(os.getcwd())


def discover_project(start: str) -> str:
    """As git finds its repository: from `start` up to the nearest folder holding
    `.claude/memory`, or the nearest that holds `.git` (a folder, or the file of a worktree
    or submodule), whichever comes first; else `start`. The walk goes by names, upward only,
    and stops below the home folder and at the file system root: `~/.claude` is Claude
    Code's own folder, and a home under git is no project."""
    home = os.path.normcase(os.path.abspath(os.path.expanduser("~")))
    folder = os.path.abspath(start)
    while os.path.normcase(folder) != home:
        if os.path.isdir(os.path.join(folder, *MEMORY_DIR.split("/"))):
            return folder
        if os.path.lexists(os.path.join(folder, ".git")):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    return os.path.abspath(start)


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


class MemoryPaths:
    """Every well-known path of one memory tree, as plain strings made once (a plain class:
    dataclasses cost ~10 ms; a path is an attribute read, never a call)."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        base = os.fspath(root)
        self.base = base
        j = os.path.join
        # Every well-known file and folder of a tree, relative to `.claude/memory/`: the one
        # table (LAYOUT below is read off it).
        self.index = j(base, "MEMORY.md")
        self.archive = j(base, "MEMORY-archive.md")
        self.session = j(base, "_session.json")
        self.config = j(base, "config.json")
        self.master = j(base, "master.md")
        self.gitignore = j(base, ".gitignore")
        self.context = j(base, "context")
        self.current_task = j(base, "context", "current-task.md")
        self.blockers = j(base, "context", "blockers.md")
        self.progress = j(base, "progress")
        self.sessions = j(base, "sessions")
        self.subagent = j(base, "subagent")
        self.checkpoints = j(base, "checkpoints")
        self.latest_checkpoint = j(base, "checkpoints", "latest.md")
        self.session_checkpoints = j(base, "checkpoints", "sessions")  # <session-id>.md each
        self.cache = j(base, ".cache")
        self.lock = j(base, ".cache", "store.lock")
        self.log = j(base, ".cache", "memhooks.log")
        self.catalog = j(base, ".cache", "catalog.json")  # every memory with its index line
        self.search_db = j(base, ".cache", "search.sqlite3")
        self.prompts = j(base, ".cache", "prompts.json")  # the latest prompts, for PreCompact
        self.offsets = j(base, ".cache", "offsets.json")  # transcript byte offsets per session
        self.restore = j(base, ".cache", "restore")  # <session-id>.json: each session's evidence
        self.thread = j(base, ".cache", "thread.json")  # the next session's restore, rendered
        self.reminder = j(base, ".cache", "reminder.json")  # the status reminder last shown
        self.injected = j(base, ".cache", "injected.json")  # characters injected, per session
        self.handoff = j(base, ".cache", "subagent-pointers.json")  # PreToolUse(Agent) -> start
        self.rebuild_pid = j(base, ".cache", "rebuild.pid")  # SessionStart's background rebuild
        self.rebuild_log = j(base, ".cache", "rebuild.log")  # ... and its output

    def __setattr__(self, name: str, value: object) -> None:
        if name in self.__dict__:
            raise AttributeError(f"a tree's paths are set once: {name}")
        object.__setattr__(self, name, value)

    @classmethod
    def for_project(cls, project: str | os.PathLike[str]) -> MemoryPaths:
        return cls(os.path.join(os.fspath(project), *MEMORY_DIR.split("/")))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MemoryPaths) and other.base == self.base

    def __hash__(self) -> int:
        return hash(self.base)

    def __repr__(self) -> str:
        return f"MemoryPaths({self.base!r})"

    def relative(self, path: str | os.PathLike[str]) -> str:
        """A path inside the tree as the index writes it: forward slashes, relative."""
        return os.path.relpath(os.fspath(path), self.base).replace(os.sep, "/")


#: Name -> path relative to the tree (forward slashes), read off `MemoryPaths`' table.
LAYOUT = {
    name: value.replace(os.sep, "/")
    for name, value in vars(MemoryPaths("")).items()
    if name != "base"
}
