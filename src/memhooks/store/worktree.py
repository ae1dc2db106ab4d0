"""Which git repository a checkout belongs to, read from git's own small files by hand.
Standard library only: the consent gate of every hook may ask it.

Nothing is run: no `git` (its config could name programs), nothing from the repository. A
main checkout has a `.git` folder, which is the repository (its "common dir"). A linked
worktree (`git worktree add`) has a `.git` file, `gitdir: <repo>/.git/worktrees/<name>`,
and that folder holds `commondir` (the way back to the repository) and `gitdir` (the way
back to the worktree's `.git` file). The two links are checked against each other, so a
`.git` file a downloaded archive ships, pointing at a repository the user trusts, is not a
worktree of it: only git's own bookkeeping inside that repository can make one. A `.git`
that is a symlink, or anything unexpected, is no checkout of a known repository.
"""

from __future__ import annotations

import os
import stat

GIT_FILE_READ_CAP = 4096


def _read(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read(GIT_FILE_READ_CAP).strip()
    except (OSError, ValueError):
        return None


def git_dirs(checkout: str) -> tuple[str, str] | None:
    """(git dir, common dir) of a checkout, both real paths: the same folder for a main
    checkout, `<repo>/.git/worktrees/<name>` and `<repo>/.git` for a linked worktree. None
    when `checkout` holds no `.git`, or one that is a symlink or does not check out."""
    dotgit = os.path.join(checkout, ".git")
    try:
        info = os.lstat(dotgit)
    except OSError:
        return None
    if stat.S_ISDIR(info.st_mode):
        if os.path.lexists(os.path.join(dotgit, "commondir")):
            return None  # a worktree's git dir copied in place: not git's own layout
        real = os.path.realpath(dotgit)
        return real, real
    if not stat.S_ISREG(info.st_mode):
        return None
    return _linked(checkout, dotgit)


def _linked(checkout: str, dotgit: str) -> tuple[str, str] | None:
    text = _read(dotgit)
    if not text or not text.startswith("gitdir:"):
        return None
    gitdir = os.path.realpath(os.path.join(checkout, text[len("gitdir:") :].strip()))
    common_text = _read(os.path.join(gitdir, "commondir"))
    back = _read(os.path.join(gitdir, "gitdir"))
    if not common_text or not back:
        return None
    common = os.path.realpath(os.path.join(gitdir, common_text))
    if os.path.dirname(gitdir) != os.path.join(common, "worktrees"):
        return None
    if os.path.realpath(os.path.join(gitdir, back)) != os.path.realpath(dotgit):
        return None  # the repository does not list this folder as its worktree
    return gitdir, common


def is_linked_worktree(checkout: str) -> bool:
    """A worktree made by `git worktree add` (not the repository's main checkout)."""
    found = git_dirs(checkout)
    return found is not None and found[0] != found[1]


def branch(checkout: str) -> str | None:
    """The branch checked out (from the git dir's HEAD), or None (detached, no git)."""
    found = git_dirs(checkout)
    head = _read(os.path.join(found[0], "HEAD")) if found else None
    if not head or not head.startswith("ref: refs/heads/"):
        return None
    return head[len("ref: refs/heads/") :]


def join_worktree(memory_base: str, now: str) -> bool:
    """Give a worktree its own id and session record (machine-local, `store.local`), as
    `start` would, when its tree came with the branch and its repository's consent covers
    it: the caller checked the consent. False (nothing written) when it has a record already
    or the checkout is no linked worktree."""
    from memhooks.store.local import ensure_id
    from memhooks.store.paths import MemoryPaths
    from memhooks.store.session import KEYS, write_state

    checkout = os.path.dirname(os.path.dirname(os.path.abspath(memory_base)))
    if not os.path.isdir(memory_base) or not is_linked_worktree(checkout):
        return False
    if os.path.lexists(MemoryPaths(memory_base).session):
        return False
    ensure_id(checkout)
    target = MemoryPaths(memory_base).session
    state = {
        **KEYS,
        "active": True,
        "started": now,
        "project": os.path.basename(checkout),
        "branch": branch(checkout),
        "lastActivity": now,
        "stats": {"decisions": 0, "analyses": 0, "indexArchived": 0, "subagentOutputs": 0},
    }
    write_state(target, state)
    return True
