# A hook reads this: os.path on plain strings, not pathlib (~6 ms to import).
"""The user tier: memories about the person (preferences, feedback), kept for every project.

A project's memory lives in the project (`.claude/memory/`), where git shares it. What a
person re-teaches in every repository ("I prefer …", "answer in British English") lives in
the user's own data folder instead, `$XDG_DATA_HOME/memhooks/user/` (by default
`~/.local/share/memhooks/user/`): the same tree format as a project's (markdown with
frontmatter, MEMORY.md, `.cache/`), so the same store, redaction, validation and lifecycle
serve it. It is never inside a repository: a user folder that resolves inside the current
project is refused (a home folder under git, an XDG_DATA_HOME pointed into a checkout).

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


def user_dir() -> str:
    """`$XDG_DATA_HOME/memhooks/user` (an absolute XDG_DATA_HOME only, as the spec says),
    else `~/.local/share/memhooks/user`."""
    base = os.environ.get(DATA_ENV, "")
    if not os.path.isabs(base):
        base = os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(base, "memhooks", USER)


def user_paths() -> MemoryPaths:
    """The user tier's tree: `MemoryPaths` rooted at the user folder itself, its machine-local
    files in its own `.cache/` (the folder is this machine's already, in no repository)."""
    base = user_dir()
    return MemoryPaths(base, local=os.path.join(base, ".cache"))


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
