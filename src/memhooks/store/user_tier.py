# A hook reads this: os.path on plain strings, not pathlib (~6 ms to import).
"""The user tier: memories about the person (preferences, feedback), kept for every project.

A project's memory lives in the project (`.claude/memory/`), where git shares it. What a
person re-teaches in every repository ("I prefer …", "answer in British English") lives in
the user's own data folder instead, `$XDG_DATA_HOME/memhooks-user/` (by default
`~/.local/share/memhooks-user/`; one found at the old `…/memhooks/user/` is moved there,
once): the same tree format as a project's (markdown with frontmatter, MEMORY.md, `.cache/`),
so the same store, redaction, validation and lifecycle serve it. It is never inside a
repository: a user folder that resolves inside the current project is refused (a home
folder under git, an XDG_DATA_HOME pointed into a checkout).

Data, not state: XDG_DATA_HOME is where a person's own files go (XDG_STATE_HOME, where
consent is kept, is for state that may be lost). Standard library only: SessionStart reads it.
"""

from __future__ import annotations

import os

from memhooks.errors import Exit, MemhooksError
from memhooks.store.paths import MemoryPaths, resolves_inside

DATA_ENV = "XDG_DATA_HOME"
#: The words commands and briefings use for the two tiers.
USER = "user"
PROJECT = "project"


class InsideProjectError(MemhooksError):
    """The user tier's folder resolves inside the project: it would be committed."""

    code = Exit.REFUSED


def _data_home() -> str:
    """$XDG_DATA_HOME (an absolute one only, as the spec says), else `~/.local/share`."""
    base = os.environ.get(DATA_ENV, "")
    if not os.path.isabs(base):
        base = os.path.join(os.path.expanduser("~"), ".local", "share")
    return base


def user_dir() -> str:
    """`$XDG_DATA_HOME/memhooks-user` (by default `~/.local/share/memhooks-user`). Not
    `…/memhooks/user`, where it was until November 2026: `~/.local/share/memhooks` is where
    people clone the plugin, and a `git clean` or a new clone there would take the tier."""
    return os.path.join(_data_home(), "memhooks-" + USER)


def old_user_dir() -> str:
    """Where the user tier was before: inside a folder that is a plausible plugin clone."""
    return os.path.join(_data_home(), "memhooks", USER)


def user_paths() -> MemoryPaths:
    """The user tier's tree: `MemoryPaths` rooted at the user folder itself (an old tier
    moved there first, once); its machine-local files in its own `.cache/` (the folder is
    this machine's already, in no repository)."""
    folder = user_dir()
    if not os.path.lexists(folder) and os.path.isdir(old_user_dir()):
        move_old_tier(folder)
    return MemoryPaths(folder, local=os.path.join(folder, ".cache"))


def move_old_tier(folder: str) -> bool:
    """Move the user tier from its old folder to `folder`: one rename, under the old tier's
    store lock (no writer of it is half done), only while `folder` does not exist; nothing is
    ever deleted. Whatever fails leaves the old tier where it is, to be tried again, and says
    so on stderr. True when it moved."""
    import sys

    from memhooks.store.locking import LockTimeoutError, quick_lock

    old = old_user_dir()
    try:
        with quick_lock(MemoryPaths(old).lock, 1.0):
            if os.path.lexists(folder) or not os.path.isdir(old):
                return False
            os.rename(old, folder)
    except (LockTimeoutError, OSError) as exc:
        sys.stderr.write(f"memhooks: the user tier is still at {old} ({exc}); moved later\n")
        return False
    sys.stderr.write(
        f"memhooks: moved your user tier from {old} to {folder} (the old folder is where the "
        "plugin is often cloned)\n"
    )
    return True


def inside_project(project: str | os.PathLike[str], paths: MemoryPaths | None = None) -> bool:
    """The user tier's folder is the project or below it (symlinks followed)."""
    folder = (paths or user_paths()).base
    return resolves_inside(project, folder)


def checked_user_paths(project: str | os.PathLike[str]) -> MemoryPaths:
    """The user tier for a command run in `project`; refused when it resolves inside it."""
    paths = user_paths()
    if inside_project(project, paths):
        raise InsideProjectError(
            f"the user tier's folder {paths.base} is inside the project {os.fspath(project)}: "
            f"it would be committed with it. Point {DATA_ENV} elsewhere."
        )
    return paths


def made(paths: MemoryPaths) -> MemoryPaths:
    """The user tier's folder, created on its first use (private to the user)."""
    os.makedirs(paths.base, mode=0o700, exist_ok=True)
    return paths


def display(paths: MemoryPaths) -> str:
    """The folder as the output names it: `~/…` under the home folder, with a final slash."""
    home = os.path.expanduser("~").rstrip(os.sep)
    base = os.path.abspath(paths.base)
    if home and base.startswith(home + os.sep):
        base = "~" + base[len(home) :]
    return base.replace(os.sep, "/").rstrip("/") + "/"
