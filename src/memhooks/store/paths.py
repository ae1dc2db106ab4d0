"""Where the memory tree lives. Standard library only: the hooks import this.

One API: every well-known path of a tree is a `str` attribute of `MemoryPaths`
(`paths.session`, `paths.base` for the tree itself), made once from one table (`__init__`).
Strings, because the hooks must never import pathlib (~6 ms with what it pulls in); code
that wants a `Path` wraps one (`Path(paths.index)`).
"""

from __future__ import annotations

import os

from memhooks.errors import MemhooksError
from memhooks.store.local import OWNER, checkout_id, checkout_of, local_dir

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
    dataclasses cost ~10 ms; a path is an attribute read, never a call).

    Two places: the tree (`base`, in the checkout: what a repository may share) and the
    machine-local folder (`cache`, outside the checkout: what only this machine's hooks
    write and read back, `store.local`). `local` names that folder; by default it is the
    checkout's, found from its id (the user tier passes its own `.cache/`)."""

    def __init__(self, root: str | os.PathLike[str], local: str | None = None) -> None:
        base = os.fspath(root)
        self.base = base
        j = os.path.join
        # The one table: the tree's files, relative to `.claude/memory/` ...
        self.index = j(base, "MEMORY.md")
        self.archive = j(base, "MEMORY-archive.md")
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
        self.consolidation_log = j(base, "consolidation.log.md")  # what consolidation did
        # ... and the machine-local files, relative to the local folder (LOCAL below).
        cache = local if local is not None else local_dir(checkout_id(checkout_of(base)))
        self.cache = cache
        self.session = j(cache, "session.json")  # the session record: active, last session
        self.lock = j(cache, "store.lock")
        self.log = j(cache, "memhooks.log")
        self.catalog = j(cache, "catalog.json")  # every memory with its index line
        self.search_db = j(cache, "search.sqlite3")
        self.prompts = j(cache, "prompts.json")  # the latest prompts, for PreCompact
        self.offsets = j(cache, "offsets.json")  # transcript byte offsets per session
        self.restore = j(cache, "restore")  # <session-id>.json: each session's evidence
        self.baselines = j(cache, "restore", "start")  # <session-id>.json: git at its start
        self.thread = j(cache, "thread.json")  # the next session's restore, rendered
        self.thread_memo = j(cache, "thread-memo.json")  # its turns' renders, for the next
        self.reminder = j(cache, "reminder.json")  # the status reminder last shown
        self.injected = j(cache, "injected.json")  # characters injected, per session
        self.handoff = j(cache, "subagent-pointers.json")  # PreToolUse(Agent) -> start
        self.rebuild_pid = j(cache, "rebuild.pid")  # SessionStart's background rebuild
        self.rebuild_log = j(cache, "rebuild.log")  # ... and its output
        self.vector_mark = j(cache, "vectors.ok")  # a search index found holding vectors
        self.citations = j(cache, "citations.json")  # staleness verdicts of citations
        self.consolidation = j(cache, "consolidation.json")  # pending proposals, summed up
        self.native_marks = j(cache, "native-imports.json")  # memory -> native file
        self.patterns = j(cache, "patterns.json")  # custom redaction patterns' timings
        self.quarantine = j(cache, "quarantine")  # invalid files put aside
        self.guard_backups = j(cache, "guard")  # a direct edit's backup
        self.subagents_filed = j(cache, "subagents-filed")  # <agent id> marks
        self.watch = j(cache, "watch.json")  # stamps of the hooks' own writes (store.watch)
        self.previous_master = j(cache, "master.previous.md")  # what `synthesize` replaced
        self.view_page = j(cache, "view.html")  # `memhooks view`'s page
        self.owner = j(cache, OWNER)  # its checkout's real path (store.local)

    def __setattr__(self, name: str, value: object) -> None:
        if name in self.__dict__:
            raise AttributeError(f"a tree's paths are set once: {name}")
        object.__setattr__(self, name, value)

    @classmethod
    def for_project(cls, project: str | os.PathLike[str]) -> MemoryPaths:
        return cls(os.path.join(os.fspath(project), *MEMORY_DIR.split("/")))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MemoryPaths) and (other.base, other.cache) == (
            self.base,
            self.cache,
        )

    def __hash__(self) -> int:
        return hash(self.base)

    def __repr__(self) -> str:
        return f"MemoryPaths({self.base!r}, local={self.cache!r})"

    def relative(self, path: str | os.PathLike[str]) -> str:
        """A path inside the tree as the index writes it: forward slashes, relative."""
        return os.path.relpath(os.fspath(path), self.base).replace(os.sep, "/")


_TABLE = vars(MemoryPaths("", local="\0"))
#: Name -> path relative to the tree (forward slashes), read off `MemoryPaths`' table.
LAYOUT = {
    name: value.replace(os.sep, "/")
    for name, value in _TABLE.items()
    if name not in ("base", "cache") and not value.startswith("\0")
}
#: Name -> path relative to the machine-local folder (`store.local`).
LOCAL = {
    name: value[2:].replace(os.sep, "/")
    for name, value in _TABLE.items()
    if name != "cache" and value.startswith("\0")
}
