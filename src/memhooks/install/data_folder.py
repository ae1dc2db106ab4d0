"""Which folder may serve as the plugin's data folder. Standard library only, plain strings:
the launcher asks before it puts anything on sys.path, on every hook and command.

Besides the plugin's own root, the data folder is the one place code is imported from (the
dependencies in `deps/<tag>`, the bytecode in `pycache/<tag>`), and a command accepts it as
`--plugin-data DIR`. A repository must not be able to choose it: an injected instruction
that makes Claude run `memhooks … --plugin-data ./evil` would run the repository's code. So
a folder inside the project, not owned by the user, or writable by other users, is refused.
"""

from __future__ import annotations

import os

from memhooks import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

#: Where the project may be named, besides the working directory.
PROJECT_ENVS = ("MEMHOOKS_PROJECT_DIR", "CLAUDE_PROJECT_DIR")
#: What marks the root of the checkout a folder is in.
MARKS = (".git", os.path.join(".claude", "memory"))


def problem(folder: str, argv: Sequence[str] = ()) -> str:
    """Why `folder` must not be the data folder ("" when it may). `argv`: the command line,
    for a `--project DIR` it names."""
    if not os.path.isabs(folder):
        return f"{folder} is not an absolute path"
    real = os.path.realpath(folder)
    for project in checkouts(_named_projects(argv)):
        if _within(real, project):
            return (
                f"{folder} is inside the project {project}: memhooks never imports or runs "
                "code from a project"
            )
    existing = real
    while not os.path.exists(existing):  # nothing to import yet: who could put it there?
        parent = os.path.dirname(existing)
        if parent == existing:
            break
        existing = parent
    try:
        info = os.stat(existing)
    except OSError as exc:
        return f"{folder} cannot be checked: {exc}"
    if existing == real and hasattr(os, "geteuid") and info.st_uid != os.geteuid():
        return f"{folder} is not owned by you: memhooks imports code only from your own folders"
    if _writable_by_others(info.st_mode, info.st_gid):
        return (
            f"{existing} is writable by other users: memhooks imports code only from folders "
            f"that only you can change (chmod go-w {existing})"
        )
    return ""


def _named_projects(argv: Sequence[str]) -> list[str]:
    named = [os.environ.get(name, "") for name in PROJECT_ENVS]
    for at, arg in enumerate(argv):
        if arg == "--project":
            named.append(argv[at + 1] if at + 1 < len(argv) else "")
        elif arg.startswith("--project="):
            named.append(arg.partition("=")[2])
    try:
        named.append(os.getcwd())
    except OSError:
        pass
    return [p for p in named if p]


def checkouts(named: Iterable[str]) -> list[str]:
    """Each named folder (real path), and the checkout it is in (the nearest folder above it
    holding `.git` or `.claude/memory`); never the home folder or one above it."""
    home = os.path.realpath(os.path.expanduser("~"))
    found = []
    for name in named:
        folder = os.path.realpath(name)
        if not _within(home, folder):
            found.append(folder)
        while not _within(home, folder):
            if any(os.path.lexists(os.path.join(folder, mark)) for mark in MARKS):
                found.append(folder)
                break
            parent = os.path.dirname(folder)
            if parent == folder:
                break
            folder = parent
    return found


def _within(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def _writable_by_others(mode: int, gid: int) -> bool:
    if os.name != "posix":
        return False  # Windows: ACLs, not mode bits; the project check above still applies
    if mode & 0o002:
        return True
    return bool(mode & 0o020) and not _own_group(gid)


def _own_group(gid: int) -> bool:
    """The user's private group (a umask of 002 makes folders group-writable there)."""
    if gid != os.getegid():
        return False
    try:
        import grp
        import pwd

        group = grp.getgrgid(gid)
        user = pwd.getpwuid(os.geteuid()).pw_name
    except (ImportError, KeyError):
        return False
    return group.gr_name == user and set(group.gr_mem) <= {user}
