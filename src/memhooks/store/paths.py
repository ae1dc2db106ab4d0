"""Where the memory tree lives. Standard library only: the hooks import this.

One API: every well-known path of a tree is a `str` attribute of `MemoryPaths`
(`paths.session`, `paths.base` for the tree itself), read off one table, the `TreePath`s.
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


class TreePath:
    """One well-known file or folder of a tree, relative to `.claude/memory/`. Read on a
    `MemoryPaths` it is that tree's path, a `str`."""

    __slots__ = ("relative",)

    def __init__(self, relative: str) -> None:
        self.relative = relative

    def __get__(self, paths: MemoryPaths, owner: object = None) -> str:
        return os.path.join(paths.base, *self.relative.split("/"))


class MemoryPaths:
    """Every well-known path of one memory tree (a plain class: dataclasses cost ~10 ms)."""

    __slots__ = ("base",)

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.base = os.fspath(root)

    @classmethod
    def for_project(cls, project: str | os.PathLike[str]) -> MemoryPaths:
        return cls(os.path.join(os.fspath(project), *MEMORY_DIR.split("/")))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MemoryPaths) and other.base == self.base

    def __hash__(self) -> int:
        return hash(self.base)

    def __repr__(self) -> str:
        return f"MemoryPaths({self.base!r})"

    # Every well-known file and folder of a tree, relative to `.claude/memory/`: the one table.
    index = TreePath("MEMORY.md")
    archive = TreePath("MEMORY-archive.md")
    session = TreePath("_session.json")
    config = TreePath("config.json")
    master = TreePath("master.md")
    gitignore = TreePath(".gitignore")
    context = TreePath("context")
    current_task = TreePath("context/current-task.md")
    blockers = TreePath("context/blockers.md")
    progress = TreePath("progress")
    sessions = TreePath("sessions")
    subagent = TreePath("subagent")
    checkpoints = TreePath("checkpoints")
    latest_checkpoint = TreePath("checkpoints/latest.md")
    session_checkpoints = TreePath("checkpoints/sessions")  # <session-id>.md: each session's own
    cache = TreePath(".cache")
    lock = TreePath(".cache/store.lock")
    log = TreePath(".cache/memhooks.log")
    catalog = TreePath(".cache/catalog.json")  # derived list of every memory with its index line
    search_db = TreePath(".cache/search.sqlite3")
    prompts = TreePath(".cache/prompts.json")  # the latest prompts, kept for PreCompact
    offsets = TreePath(".cache/offsets.json")  # transcript byte offsets per session
    restore = TreePath(".cache/restore")  # <session-id>.json: each session's evidence
    reminder = TreePath(".cache/reminder.json")  # the status reminder last shown, per session
    injected = TreePath(".cache/injected.json")  # characters each hook injected, per session
    handoff = TreePath(".cache/subagent-pointers.json")  # PreToolUse(Agent) -> SubagentStart
    rebuild_pid = TreePath(".cache/rebuild.pid")  # the background rebuild SessionStart started
    rebuild_log = TreePath(".cache/rebuild.log")  # ... and its output

    def relative(self, path: str | os.PathLike[str]) -> str:
        """A path inside the tree as the index writes it: forward slashes, relative."""
        return os.path.relpath(os.fspath(path), self.base).replace(os.sep, "/")


#: Name -> path relative to the tree, read off the `TreePath`s above.
LAYOUT = {name: e.relative for name, e in vars(MemoryPaths).items() if isinstance(e, TreePath)}
